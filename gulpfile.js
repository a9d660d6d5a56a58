const fs = require('fs');
const path = require('path');
const { task, src, dest } = require('gulp');

// A build starts from an empty dist/, so that a file removed or moved in the sources is not published from
// an earlier build.
task('clean', async () => fs.rmSync(path.resolve('dist'), { recursive: true, force: true }));
task('build:icons', copyIcons);

function copyIcons() {
	const nodeSource = path.resolve('nodes', '**', '*.{png,svg}');
	const nodeDestination = path.resolve('dist', 'nodes');
	src(nodeSource, { encoding: false }).pipe(dest(nodeDestination));

	const nodeJsonSource = path.resolve('nodes', '**', '*.node.json');
	src(nodeJsonSource).pipe(dest(nodeDestination));

	const credSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credDestination = path.resolve('dist', 'credentials');
	return src(credSource, { encoding: false }).pipe(dest(credDestination));
}
