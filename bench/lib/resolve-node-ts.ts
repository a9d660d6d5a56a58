/**
 * Under tsx, `import '.../FileTransferManager.node'` resolves to the codex file FileTransferManager.node.json
 * that sits next to FileTransferManager.node.ts (plain Node tries .json before tsx's .ts); jest tries .ts
 * first. Import this module before anything that imports the nodes: it points such imports at the .ts file.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';

type Resolve = (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve };
const original = moduleWithResolve._resolveFilename;

moduleWithResolve._resolveFilename = function (request, parent, ...rest) {
	if (request.endsWith('.node') && request.startsWith('.') && parent?.filename) {
		const candidate = path.resolve(path.dirname(parent.filename), `${request}.ts`);
		if (fs.existsSync(candidate)) return candidate;
	}
	return original.call(this, request, parent, ...rest);
};
