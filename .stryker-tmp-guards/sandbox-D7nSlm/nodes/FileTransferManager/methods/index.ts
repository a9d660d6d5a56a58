// @ts-nocheck
export * as listSearch from './listSearch';
