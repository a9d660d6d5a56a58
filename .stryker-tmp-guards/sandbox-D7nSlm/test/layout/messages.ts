/**
 * Every message the nodes and the credential can raise, read from their source with TypeScript's compiler:
 * the text that reaches an error's message, as the constant parts of its template (`Job ${id} is not a dry
 * run` gives "Job" and "is not a dry run").
 *
 * Where a message goes in (the sinks): the message of `new NodeOperationError(node, message)`, the `message`
 * of `new NodeApiError(node, error, { message })`, `super(message)` in the package's own Error classes, and
 * `error.message = …`. From a sink the text is followed back through variables (also destructured from an object
 * a function returns), conditionals, `+`, template parts, the return values of the package's functions, constant tables (`KIND_NAMES[kind]`), and the
 * parameters of functions to the arguments of every call (`operationError(node, '…')`, `invalidInput(…,
 * 'must be …')`, `invalid(ctx, '…')`). So a new message anywhere, through any of these helpers, is found.
 * A plain `new Error(…)` is the package's own consistency check (a bug if it fires), not a message for users.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** One constant part of a message, with where it is written. */
export interface MessagePart {
	text: string;
	/** `file:line` of the literal. */
	at: string;
}

type FunctionLike = ts.FunctionLikeDeclaration;

export function collectMessageParts(): MessagePart[] {
	const files = [...sourceFiles(path.join(ROOT, 'nodes')), ...sourceFiles(path.join(ROOT, 'credentials'))];
	const program = ts.createProgram(files, {
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.CommonJS,
		strict: true,
		skipLibCheck: true,
		noEmit: true,
		esModuleInterop: true,
	});
	const checker = program.getTypeChecker();
	const ours = program.getSourceFiles().filter((file) => files.includes(path.resolve(file.fileName)));
	const isOurs = (node: ts.Node) => files.includes(path.resolve(node.getSourceFile().fileName));

	/** The declaration a name refers to, through imports. */
	const declarationOf = (node: ts.Node): ts.Declaration | undefined => {
		// `{ message }`: the variable the shorthand property takes its value from, not the property.
		let symbol =
			node.parent && ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
				? checker.getShorthandAssignmentValueSymbol(node.parent)
				: checker.getSymbolAtLocation(node);
		if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
		return symbol?.valueDeclaration ?? symbol?.declarations?.[0];
	};
	/** The function a callee names: a function declaration, or a variable holding an arrow or function expression. */
	const functionOf = (callee: ts.Node): FunctionLike | ts.ClassDeclaration | undefined => {
		const declaration = declarationOf(callee);
		if (!declaration || !isOurs(declaration)) return undefined;
		if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isClassDeclaration(declaration)) {
			return declaration;
		}
		if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
			const init = declaration.initializer;
			if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
		}
		return undefined;
	};
	/** Whether a class of ours extends Error (directly or through another of ours), not NodeApiError. */
	const extendsError = (cls: ts.ClassLikeDeclaration): boolean => {
		const heritage = cls.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
		if (!heritage) return false;
		if (heritage.expression.getText() === 'Error') return true;
		const base = functionOf(heritage.expression);
		return base !== undefined && ts.isClassDeclaration(base) && extendsError(base);
	};

	/** Whether a type is n8n's NodeApiError or a class extending it. */
	const isNodeApiError = (type: ts.Type): boolean => {
		if (type.getSymbol()?.getName() === 'NodeApiError') return true;
		return (type.isClass() ? (checker.getBaseTypes(type) ?? []) : []).some(isNodeApiError);
	};

	// Every call and `new` of our functions and classes, by callee.
	const callsOf = new Map<ts.Node, Array<ts.CallExpression | ts.NewExpression>>();
	const visitCalls = (node: ts.Node) => {
		if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.expression.kind !== ts.SyntaxKind.SuperKeyword) {
			const target = functionOf(node.expression);
			if (target) callsOf.set(target, [...(callsOf.get(target) ?? []), node]);
		}
		ts.forEachChild(node, visitCalls);
	};
	ours.forEach(visitCalls);

	const parts: MessagePart[] = [];
	const seen = new Set<ts.Node>();
	const part = (literal: ts.Node, text: string) => {
		const file = literal.getSourceFile();
		const line = file.getLineAndCharacterOfPosition(literal.getStart()).line + 1;
		parts.push({ text, at: `${path.relative(ROOT, file.fileName)}:${line}` });
	};

	/** The arguments at `index` of every call of a function whose parameter carries a message. */
	const followParameter = (parameter: ts.ParameterDeclaration) => {
		const fn = parameter.parent;
		const index = fn.parameters.indexOf(parameter);
		const callee = ts.isConstructorDeclaration(fn) ? fn.parent : fn;
		for (const call of callsOf.get(callee) ?? []) {
			const argument = call.arguments?.[index];
			if (argument) follow(argument);
		}
	};

	const returnsOf = (fn: FunctionLike): ts.Expression[] => {
		if (!fn.body) return [];
		if (!ts.isBlock(fn.body)) return [fn.body];
		const out: ts.Expression[] = [];
		const visit = (node: ts.Node) => {
			if (ts.isReturnStatement(node) && node.expression) out.push(node.expression);
			if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
		};
		ts.forEachChild(fn.body, visit);
		return out;
	};

	const objectValues = (name: ts.Expression, key?: string) => {
		const declaration = declarationOf(name);
		let init = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
		while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
		// `refusal.problem`, `refusal` a variable that a call of ours gives: the property of the objects it returns.
		if (init && key !== undefined && ts.isCallExpression(init)) return followProperty(init, key);
		if (!init || !ts.isObjectLiteralExpression(init)) return;
		for (const property of init.properties) {
			if (!ts.isPropertyAssignment(property)) continue;
			if (key === undefined || property.name.getText().replace(/['"]/g, '') === key) follow(property.initializer);
		}
	};

	/**
	 * The property `key` of an object literal an expression gives: directly, or as a function of ours returns it
	 * (also through a returned call of ours, or a returned variable that one gives).
	 */
	const propertySeen = new Set<string>();
	function followProperty(node: ts.Expression, key: string): void {
		const id = `${node.getSourceFile().fileName}:${node.getStart()}:${key}`;
		if (propertySeen.has(id)) return;
		propertySeen.add(id);
		if (ts.isIdentifier(node)) {
			const declaration = declarationOf(node);
			if (declaration && isOurs(declaration) && ts.isVariableDeclaration(declaration) && declaration.initializer) {
				followProperty(declaration.initializer, key);
			}
			return;
		}
		const returned = ts.isCallExpression(node)
			? (() => {
					const fn = functionOf(node.expression);
					return fn && !ts.isClassDeclaration(fn) ? returnsOf(fn) : [];
				})()
			: [];
		for (const value of returned) if (ts.isCallExpression(value) || ts.isIdentifier(value)) followProperty(value, key);
		const objects = ts.isObjectLiteralExpression(node) ? [node] : returned.filter(ts.isObjectLiteralExpression);
		for (const object of objects) {
			for (const property of object.properties) {
				if (ts.isPropertyAssignment(property) && property.name.getText().replace(/['"]/g, '') === key) follow(property.initializer);
				if (ts.isShorthandPropertyAssignment(property) && property.name.text === key) follow(property.name);
			}
		}
	}

	/** Follows an expression that becomes (part of) a message back to its literals. */
	function follow(node: ts.Node): void {
		if (seen.has(node)) return;
		seen.add(node);
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return part(node, node.text);
		if (ts.isTemplateExpression(node)) {
			part(node.head, node.head.text);
			for (const span of node.templateSpans) {
				part(span.literal, span.literal.text);
				follow(span.expression);
			}
			return;
		}
		if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) {
			return follow(node.expression);
		}
		if (ts.isConditionalExpression(node)) {
			follow(node.whenTrue);
			return follow(node.whenFalse);
		}
		if (ts.isBinaryExpression(node)) {
			follow(node.left);
			return follow(node.right);
		}
		if (ts.isArrayLiteralExpression(node)) return node.elements.forEach(follow);
		if (ts.isIdentifier(node)) {
			const declaration = declarationOf(node);
			if (!declaration || !isOurs(declaration)) return;
			if (ts.isParameter(declaration)) return followParameter(declaration);
			if (ts.isVariableDeclaration(declaration) && declaration.initializer) return follow(declaration.initializer);
			// `const { message } = texts(…)`: the property of what the initializer gives.
			if (ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent)) {
				const variable = declaration.parent.parent;
				const key = (declaration.propertyName ?? declaration.name).getText();
				if (ts.isVariableDeclaration(variable) && variable.initializer) followProperty(variable.initializer, key);
			}
			return;
		}
		if (ts.isPropertyAccessExpression(node)) return objectValues(node.expression, node.name.text);
		if (ts.isElementAccessExpression(node)) return objectValues(node.expression);
		if (ts.isCallExpression(node)) {
			const fn = functionOf(node.expression);
			if (fn && !ts.isClassDeclaration(fn)) return returnsOf(fn).forEach(follow);
			// `[…].join(' ')`, `text.trim()`: the text is what the method is called on.
			if (ts.isPropertyAccessExpression(node.expression) && ['join', 'trim', 'concat'].includes(node.expression.name.text)) {
				return follow(node.expression.expression);
			}
		}
	}

	const visitSinks = (node: ts.Node) => {
		if (ts.isNewExpression(node)) {
			const name = node.expression.getText();
			const args = node.arguments ?? [];
			if (name === 'NodeOperationError' && args[1]) follow(args[1]);
			// `new NodeApiError(…)`, also through a parameter or class of ours (`new Kind(…)`, Kind a NodeApiError class).
			const apiErrorClass = name === 'NodeApiError' || isNodeApiError(checker.getTypeAtLocation(node));
			if (apiErrorClass && args[2] && ts.isObjectLiteralExpression(args[2])) {
				for (const property of args[2].properties) {
					if (ts.isPropertyAssignment(property) && property.name.getText() === 'message') follow(property.initializer);
					if (ts.isShorthandPropertyAssignment(property) && property.name.text === 'message') follow(property.name);
				}
			}
			const cls = functionOf(node.expression);
			// A class of ours without its own constructor: Error's (message) is its first argument.
			if (cls && ts.isClassDeclaration(cls) && extendsError(cls) && !cls.members.some(ts.isConstructorDeclaration) && args[0]) {
				follow(args[0]);
			}
		}
		if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword && node.arguments[0]) {
			const cls = ts.findAncestor(node, ts.isClassLike);
			if (cls && extendsError(cls)) follow(node.arguments[0]);
		}
		if (
			ts.isBinaryExpression(node) &&
			node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
			ts.isPropertyAccessExpression(node.left) &&
			node.left.name.text === 'message'
		) {
			follow(node.right);
		}
		ts.forEachChild(node, visitSinks);
	};
	ours.forEach(visitSinks);
	return parts;
}

/** Every label of the nodes' and the credential's parameters: display names of fields, options and their values. */
export function parameterLabels(properties: unknown[]): string[] {
	const out: string[] = [];
	const visit = (value: unknown) => {
		if (Array.isArray(value)) return value.forEach(visit);
		if (!value || typeof value !== 'object') return;
		const record = value as Record<string, unknown>;
		for (const key of ['displayName', 'name']) if (typeof record[key] === 'string') out.push(record[key] as string);
		for (const key of ['options', 'values']) visit(record[key]);
	};
	visit(properties);
	return [...new Set(out)].filter((label) => label.trim() !== '').sort((a, b) => b.length - a.length);
}

/**
 * The parts that say something: spaces collapsed, and at least two words left once the parameters' labels
 * (the field a message names, e.g. "Source Storage") are taken out. What is left out is a value put into a
 * message (a label, a record's kind, `[item`), not its text.
 */
export function meaningfulParts(parts: MessagePart[], labels: string[]): MessagePart[] {
	return parts
		.map((p) => ({ ...p, text: p.text.replace(/\s+/g, ' ').trim() }))
		.filter((p) => {
			let rest = p.text;
			for (const label of labels) rest = rest.split(label).join(' ');
			return (rest.match(/[A-Za-z]{2,}/g) ?? []).length >= 2;
		});
}
