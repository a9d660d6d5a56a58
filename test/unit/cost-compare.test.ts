/**
 * Max Estimated Cost compares decimal amounts exactly (helpers/costGuard.ts): as digits, never as floats.
 */
import { compareDecimal } from '../../nodes/FileTransferManager/helpers/costGuard';

describe('compareDecimal', () => {
	it.each([
		['12.50', '12.5', 0],
		['012.5', '12.50', 0],
		['0', '0.000', 0],
		['12.4999', '12.5', -1],
		['12.5000001', '12.5', 1],
		['9.999999999999999999', '10', -1],
		// Floats would call these equal: 0.1 + 0.2 and 0.3 differ in the 17th digit only.
		['0.30000000000000004', '0.3', 1],
		['100000000000000000000.01', '100000000000000000000', 1],
		['99', '100', -1],
		['0.0102', '0.0104', -1],
		// Leading zeros of the whole part all go (not one): 0012 is 12, fewer digits than 100 but below 13.
		['0012', '13', -1],
		// Only trailing zeros of the decimals go: 0.05 is not 0.5.
		['0.05', '0.5', -1],
	] as Array<[string, string, number]>)('%s vs %s: %i', (a, b, expected) => {
		expect(compareDecimal(a, b)).toBe(expected);
		expect(compareDecimal(b, a)).toBe(-expected || 0);
	});
});
