/** Fault matrix, Job operations (see matrix.ts for the expectation table). */
// @ts-nocheck

import { describeMatrix } from './matrix';
import { OPERATIONS } from './operations';

describeMatrix(
	'fault matrix: job',
	OPERATIONS.filter((op) => op.name.startsWith('job.')),
);
