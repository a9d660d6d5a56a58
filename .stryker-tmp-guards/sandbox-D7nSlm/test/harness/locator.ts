/** A resource-locator parameter value, as n8n stores one: `{ __rl: true, mode, value }`. */
// @ts-nocheck

export type LocatorMode = 'id' | 'list' | 'url';

export interface Locator {
	__rl: true;
	mode: string;
	value: string;
}

/** By ID (the default), or by the mode given: the picker's `list`, or `url`. */
export function rl(value: string, mode: LocatorMode | string = 'id'): Locator {
	return { __rl: true, mode, value };
}

/** The same with the picker (`list`) as the default mode. */
export function rlList(value: string, mode: LocatorMode | string = 'list'): Locator {
	return rl(value, mode);
}
