/** Fault matrix, User and Group operations (see matrix.ts for the expectation table). */
// @ts-nocheck

import { describeMatrix } from './matrix';
import { OPERATIONS } from './operations';

describeMatrix(
	'fault matrix: user and group',
	OPERATIONS.filter((op) => op.name.startsWith('user.') || op.name.startsWith('group.')),
);
