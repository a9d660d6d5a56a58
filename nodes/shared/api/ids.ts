/**
 * Every id of the API is a UUID (docs/api-contract.md). This is the one pattern the nodes check ids with:
 * input fields, the records the service sends, and ids put into a request path.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}
