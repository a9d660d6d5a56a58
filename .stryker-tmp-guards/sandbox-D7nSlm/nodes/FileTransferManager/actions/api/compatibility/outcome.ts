/** What a check is and what it outputs: the outcome types, the shared texts and how errors are told. */
// @ts-nocheck

import type { Probe } from './probe';
import { isObject } from './probe';

export type CheckResult = 'pass' | 'fail' | 'cannot tell';

export interface Outcome {
	result: CheckResult;
	observed: string;
	fix: string;
}

export interface CheckSpec {
	check: string;
	title: string;
	run: (probe: Probe) => Promise<Outcome>;
}

export const NOTHING_TO_FIX = 'Nothing to change.';

export function httpCodeOf(error: unknown): string | undefined {
	const code = isObject(error) ? error.httpCode : undefined;
	return typeof code === 'string' && code !== '' ? code : undefined;
}

/** The error code the transport put on the error: the API's `code`, or its own (`TOKEN`, …). */
export function errorCodeOf(error: unknown): string | undefined {
	const response = isObject(error) ? error.errorResponse : undefined;
	const code = isObject(response) ? response.code : undefined;
	return typeof code === 'string' ? code : undefined;
}

/** An error in one line: HTTP status, message and description, as the transport wrote them (no secrets). */
export function errorText(error: unknown): string {
	const http = httpCodeOf(error);
	const message = error instanceof Error ? error.message : String(error);
	const detail = isObject(error) && typeof error.description === 'string' ? error.description : '';
	return [http ? `HTTP ${http}` : '', message, detail ? `(${detail})` : ''].filter(Boolean).join(' ');
}

/** No token, or the API refused it: the token check tells, not the check that saw it. */
export function isTokenFailure(error: unknown): boolean {
	const http = httpCodeOf(error);
	return errorCodeOf(error) === 'TOKEN' || http === '401' || http === '403';
}

export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export const cannotTell = (observed: string, fix = 'See the check that failed for this request.'): Outcome => ({
	result: 'cannot tell',
	observed,
	fix,
});
