/**
 * Surviving mutants of `npm run test:mutation` that no test can kill, because the mutated code behaves as the
 * original for every input the code can get (equivalent mutants). scripts/mutation-check.ts leaves them out of
 * the file's score, and fails when an entry matches no surviving mutant any more.
 *
 * An entry names the mutant as the HTML report shows it: the file, the text of the line the mutant starts on,
 * the mutator, the code it replaces and the replacement, each on one line with blanks collapsed. Every entry says why the mutant is equivalent. Add one
 * only after trying to write the test that kills it.
 */
export interface Equivalent {
	file: string;
	/** The line the mutant starts on, trimmed, blanks collapsed. */
	line: string;
	mutator: string;
	original: string;
	replacement: string;
	reason: string;
}

export const EQUIVALENT: readonly Equivalent[] = [
	{
		file: 'nodes/shared/transport/pace/remembered.ts',
		line: 'const parallel = learnt.parallel >= maximum && earlier && earlier.parallel > learnt.parallel ? earlier.parallel : learnt.parallel;',
		mutator: 'EqualityOperator',
		original: 'earlier.parallel > learnt.parallel',
		replacement: 'earlier.parallel >= learnt.parallel',
		reason: 'remember() keeps earlier.parallel instead of learnt.parallel only when the two are equal: the same number is kept.',
	},
	{
		file: 'nodes/shared/transport/pace/remembered.ts',
		line: 'services.delete(service);',
		mutator: 'CallExpression',
		original: 'services.delete(service);',
		replacement: ';',
		reason:
			"recall() of an entry past its age: without the delete it still answers undefined (the age is checked at every read), remember() replaces the entry, and the bound on services evicts it before any live one (the map is in order of confirmation, so an expired entry comes first). Only the memory differs, bounded by SERVICES_KEPT.",
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const text = typeof value === \'number\' && Number.isFinite(value) ? String(value) : typeof value === \'string\' ? value.trim() : undefined;',
		mutator: 'LogicalOperator',
		original: 'typeof value === \'number\' && Number.isFinite(value)',
		replacement: 'typeof value === \'number\' || Number.isFinite(value)',
		reason: 'Number.isFinite is false for anything that is not a number, so || lets through only what && does.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const text = typeof value === \'number\' && Number.isFinite(value) ? String(value) : typeof value === \'string\' ? value.trim() : undefined;',
		mutator: 'ConditionalExpression',
		original: 'typeof value === \'number\'',
		replacement: 'true',
		reason: 'Number.isFinite alone is false for anything that is not a number: the same values reach String(value).',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'return text !== undefined && DECIMAL.test(text) ? text : undefined;',
		mutator: 'ConditionalExpression',
		original: 'text !== undefined',
		replacement: 'true',
		reason: 'DECIMAL.test(undefined) tests the text "undefined", which is no decimal: undefined either way.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'return [whole.replace(/^0+(?=\\d)/, \'\'), fraction.replace(/0+$/, \'\')];',
		mutator: 'Regex',
		original: '/0+$/',
		replacement: '/0$/',
		reason: 'Trailing zeros of the decimals are padded back to the same width before the digits are compared: stripping one or all of them gives the same comparison.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;',
		mutator: 'EqualityOperator',
		original: 'wholeA.length < wholeB.length',
		replacement: 'wholeA.length <= wholeB.length',
		reason: 'Evaluated only when the two lengths differ, where < and <= agree.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const width = Math.max(fractionA.length, fractionB.length);',
		mutator: 'MethodExpression',
		original: 'Math.max(fractionA.length, fractionB.length)',
		replacement: 'Math.min(fractionA.length, fractionB.length)',
		reason: 'With trailing zeros stripped, decimals compared as text unpadded order as numbers do (a shorter one that is a prefix of the other is smaller, as the other\'s extra digits end in a non-zero digit), so padding to the narrower width (no padding) gives the same answer.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const digitsA = wholeA + fractionA.padEnd(width, \'0\');',
		mutator: 'StringLiteral',
		original: '\'0\'',
		replacement: '""',
		reason: 'padEnd with an empty filler pads nothing; as for Math.min above, unpadded decimals without trailing zeros compare as text in numeric order.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const digitsB = wholeB + fractionB.padEnd(width, \'0\');',
		mutator: 'StringLiteral',
		original: '\'0\'',
		replacement: '""',
		reason: 'As on the line above, for the second amount.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'return digitsA < digitsB ? -1 : 1;',
		mutator: 'EqualityOperator',
		original: 'digitsA < digitsB',
		replacement: 'digitsA <= digitsB',
		reason: 'Reached only when digitsA !== digitsB (equal returns 0 first), where < and <= agree.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'if (raw === \'\' || raw === null || raw === undefined || (typeof raw === \'string\' && raw.trim() === \'\')) return undefined;',
		mutator: 'ConditionalExpression',
		original: 'raw === \'\'',
		replacement: 'false',
		reason: '\'\' also meets the last test of the line (a string that is blank when trimmed): undefined either way.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'if (raw === \'\' || raw === null || raw === undefined || (typeof raw === \'string\' && raw.trim() === \'\')) return undefined;',
		mutator: 'StringLiteral',
		original: '\'\'',
		replacement: '"Stryker was here!"',
		reason: 'As above: \'\' is caught by the blank-string test of the same line.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'currency === \'\' && (currencyRaw === \'\' || currencyRaw === undefined || currencyRaw === null)',
		mutator: 'ConditionalExpression',
		original: 'currency === \'\'',
		replacement: 'true',
		reason: 'The rest of the condition (the raw currency \'\', undefined or null) already implies currency === \'\' (the trimmed text, or \'\' for a value that is not a string).',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const record = estimate !== null && typeof estimate === \'object\' ? (estimate as Record<string, unknown>) : undefined;',
		mutator: 'ConditionalExpression',
		original: 'estimate !== null',
		replacement: 'true',
		reason: 'With null let through, record is null (typeof null is \'object\') and !record refuses it the same way as undefined.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: 'const currency = typeof record.currency === \'string\' ? record.currency.trim().toUpperCase() : \'\';',
		mutator: 'StringLiteral',
		original: '\'\'',
		replacement: '"Stryker was here!"',
		reason: 'A currency that is not text becomes a text that is no three-letter code either way: the same refusal.',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: '\'The most the real job may cost, as the dry run estimated it: a decimal amount with a point, e.g. 25.00. Above it, or when the dry run has no estimate in this currency, no job is started and the item fails. Leave empty for no maximum.\',',
		mutator: 'StringLiteral',
		original: '\'The most the real job may cost, as the dry run estimated it: a decimal amount with a point, e.g. 25.00. Above it, or when the dry run has no estimate in this currency, no job is started and the item fails. Leave empty for no maximum.\'',
		replacement: '""',
		reason: 'Not logic: the parameter\'s help text in the editor, which no code reads. The test of costGuardProperties checks what code reads (names, types, defaults, display options, the placeholders as valid input).',
	},
	{
		file: 'nodes/FileTransferManager/helpers/costGuard.ts',
		line: '\'Currency of the maximum, an ISO 4217 code such as USD or EUR. Required with a maximum: an estimate in another currency is refused, never converted.\',',
		mutator: 'StringLiteral',
		original: '\'Currency of the maximum, an ISO 4217 code such as USD or EUR. Required with a maximum: an estimate in another currency is refused, never converted.\'',
		replacement: '""',
		reason: 'Not logic: the currency parameter\'s help text in the editor, which no code reads (as above).',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: '} catch {',
		mutator: 'BlockStatement',
		original: '{ origin = undefined; }',
		replacement: '{}',
		reason: 'origin is undefined before the try and stays so when new URL() throws: the assignment in the catch changes nothing.',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: 'if (origin === undefined || origin === \'null\') {',
		mutator: 'ConditionalExpression',
		original: 'origin === \'null\'',
		replacement: 'false',
		reason: 'BASE_URL_PATTERN admits only http(s) URLs, and their origin is never "null": the check is a second guard that no input can reach.',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: 'if (origin === undefined || origin === \'null\') {',
		mutator: 'StringLiteral',
		original: '\'null\'',
		replacement: '""',
		reason: 'As above: an http(s) origin is never "null", nor "".',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: 'if (target === undefined || target === \'\') return [base];',
		mutator: 'ConditionalExpression',
		original: 'target === \'\'',
		replacement: 'false',
		reason: 'An empty target joins to the base in both readings (axios\'s join: the base and a slash; new URL(\'\', base): the base), so the origin read is the base\'s either way.',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: 'const joined = AXIOS_ABSOLUTE.test(target) ? target : `${base.replace(/\\/?\\/$/, \'\')}/${target.replace(/^\\/+/, \'\')}`;',
		mutator: 'Regex',
		original: '/^\\/+/',
		replacement: '/\\/+/',
		reason: 'Only the path of the joined reading changes (a relative target\'s first run of slashes), never its origin, which comes from the base.',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: 'const joined = AXIOS_ABSOLUTE.test(target) ? target : `${base.replace(/\\/?\\/$/, \'\')}/${target.replace(/^\\/+/, \'\')}`;',
		mutator: 'Regex',
		original: '/^\\/+/',
		replacement: '/^\\//',
		reason: 'A target with two or more leading slashes is absolute for axios (AXIOS_ABSOLUTE) and never joined; with one, both patterns strip the same slash.',
	},
	{
		file: 'nodes/shared/transport/origin.ts',
		line: 'const joined = AXIOS_ABSOLUTE.test(target) ? target : `${base.replace(/\\/?\\/$/, \'\')}/${target.replace(/^\\/+/, \'\')}`;',
		mutator: 'StringLiteral',
		original: '\'\'',
		replacement: '"Stryker was here!"',
		reason: 'The text goes after the slash that follows the base, into the path of the joined reading: its origin stays the base\'s.',
	},
];
