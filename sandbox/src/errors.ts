import type { ApiErrorObject, ErrorCode } from '../../nodes/shared/api/types';

/** An API error answer: HTTP status plus one or more JSON:API error objects. */
export class ApiError extends Error {
	readonly headers: Record<string, string>;

	constructor(
		readonly status: number,
		readonly errors: ApiErrorObject[],
		headers: Record<string, string> = {},
	) {
		super(errors.map((e) => e.detail).join('; '));
		this.headers = headers;
	}

	body(): { errors: ApiErrorObject[] } {
		return { errors: this.errors };
	}
}

const TITLES: Record<ErrorCode, string> = {
	'invalid-request': 'Invalid Request',
	'validation-failed': 'Validation Failed',
	'invalid-filter': 'Invalid Filter',
	'invalid-sort': 'Invalid Sort',
	'invalid-page': 'Invalid Page',
	'read-only-attribute': 'Read-Only Attribute',
	unauthorized: 'Unauthorized',
	'entity-not-found': 'Entity Not Found',
	'method-not-allowed': 'Method Not Allowed',
	'invalid-status-transition': 'Invalid Status Transition',
	conflict: 'Conflict',
	'rate-limited': 'Too Many Requests',
	'internal-error': 'Internal Server Error',
	unavailable: 'Service Unavailable',
};

/** Builds one JSON:API error object; `pointer` is a JSON pointer into the request document. */
export function errorObject(status: number, code: ErrorCode, detail: string, pointer?: string): ApiErrorObject {
	const error: ApiErrorObject = { status: String(status), code, title: TITLES[code], detail };
	if (pointer !== undefined) error.source = { pointer };
	return error;
}

/** Shorthand for an ApiError with a single error object. */
export function apiError(
	status: number,
	code: ErrorCode,
	detail: string,
	pointer?: string,
	headers?: Record<string, string>,
): ApiError {
	return new ApiError(status, [errorObject(status, code, detail, pointer)], headers);
}

export const notFound = (): ApiError =>
	apiError(404, 'entity-not-found', 'The requested entity was not found.');

export const methodNotAllowed = (method: string, allowed: string[]): ApiError =>
	apiError(405, 'method-not-allowed', `${method} is not allowed on this resource.`, undefined, {
		Allow: allowed.join(', '),
	});

/** Collects validation errors for one request body, so that all faults are reported together. */
export class Problems {
	readonly list: ApiErrorObject[] = [];

	add(field: string, detail: string): void {
		this.list.push(errorObject(400, 'validation-failed', detail, `/data/attributes/${field}`));
	}

	readOnly(field: string, detail?: string): void {
		this.list.push(
			errorObject(400, 'read-only-attribute', detail ?? `The attribute "${field}" cannot be set.`, `/data/attributes/${field}`),
		);
	}

	throwIfAny(): void {
		if (this.list.length > 0) throw new ApiError(400, this.list);
	}
}
