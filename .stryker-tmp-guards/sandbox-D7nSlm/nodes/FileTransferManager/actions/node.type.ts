/** Resource → operation names of the action node; operation values double as module names. */
// @ts-nocheck

export type FileTransferManagerMap = {
	account: 'get' | 'getMany';
	api: 'checkCompatibility' | 'getVersion';
	group: 'create' | 'deleteGroup' | 'get' | 'getMany' | 'update';
	job:
		| 'cancel'
		| 'create'
		| 'get'
		| 'getErrors'
		| 'getMany'
		| 'getTransfers'
		| 'pause'
		| 'resume'
		| 'runFromDryRun';
	storage: 'get' | 'getMany';
	user: 'create' | 'deleteUser' | 'get' | 'getMany' | 'update';
};

export type FileTransferManagerResource = keyof FileTransferManagerMap;
