/** Fault matrix, Account, API and Storage operations and the trigger (see matrix.ts for the expectation table). */
// @ts-nocheck

import { describeMatrix } from './matrix';
import { OPERATIONS } from './operations';

describeMatrix(
	'fault matrix: account, API, storage, trigger',
	OPERATIONS.filter((op) => /^(account|api|storage)\./.test(op.name)),
	{ trigger: true },
);
