/** The checks of the connection: the token, the root document and the request bodies' media type. */
import { routes } from '../../../../../shared/api/routes';
import { shown } from '../../../../../shared/input/validate';
import { deployment } from '../../../../../shared/transport';
import type { CheckSpec } from '../outcome';
import { NOTHING_TO_FIX, cannotTell, errorCodeOf, errorText, httpCodeOf, isTokenFailure } from '../outcome';
import { NO_SUCH_ID, isObject, rootAnswer } from '../probe';

export const token: CheckSpec = {
	check: 'token',
	title: 'The credential gets an access token, and the API takes it',
	async run(probe) {
		const answer = await rootAnswer(probe);
		if (answer.ok) {
			return {
				result: 'pass',
				observed: 'A token was issued at <Base URL>/oauth/token, and GET / was answered with it.',
				fix: NOTHING_TO_FIX,
			};
		}
		if (errorCodeOf(answer.error) === 'TOKEN') {
			return {
				result: 'fail',
				observed: `No usable token: ${errorText(answer.error)}`,
				fix: 'Check the credential: Base URL must be the API host of your deployment (the token URL is <Base URL>/oauth/token), and Client ID and Secret a pair from the API section of its web interface.',
			};
		}
		const http = httpCodeOf(answer.error);
		if (http === '401' || http === '403') {
			return {
				result: 'fail',
				observed: `A token was issued, but GET / refused it: ${errorText(answer.error)}`,
				fix: 'The API host did not take the token its token endpoint gave. Check that Base URL is the API host of the deployment whose web interface issued the Client ID and Secret.',
			};
		}
		if (http === undefined) return cannotTell(`GET / got no answer: ${errorText(answer.error)}`, 'Check the Base URL and the network path to the service, then run the check again.');
		return {
			result: 'pass',
			observed: `A token was issued, and GET / with it was answered HTTP ${http} (see the check "root").`,
			fix: NOTHING_TO_FIX,
		};
	},
};

export const root: CheckSpec = {
	check: 'root',
	title: 'GET / reports the API version in meta.apiVersion',
	async run(probe) {
		const answer = await rootAnswer(probe);
		if (!answer.ok) {
			if (isTokenFailure(answer.error)) return cannotTell(`GET / was not answered with a token: ${errorText(answer.error)}`, 'See the check "token".');
			return {
				result: 'fail',
				observed: `GET / failed: ${errorText(answer.error)}`,
				fix: 'Check the Base URL of the credential: an authenticated GET of it must answer with the API\'s root document.',
			};
		}
		const doc = answer.doc;
		const meta = isObject(doc) ? doc.meta : undefined;
		const version = isObject(meta) ? meta.apiVersion : undefined;
		if (typeof version === 'string') {
			const jsonapi = isObject(doc) && isObject(doc.jsonapi) ? doc.jsonapi.version : undefined;
			return {
				result: 'pass',
				observed: `meta.apiVersion is ${JSON.stringify(version)}${typeof jsonapi === 'string' ? `, jsonapi.version ${JSON.stringify(jsonapi)}` : ''}.`,
				fix: NOTHING_TO_FIX,
			};
		}
		return {
			result: 'fail',
			observed: `meta.apiVersion is ${version === undefined ? 'missing' : shown(version)}; the root document is ${shown(doc)}.`,
			fix: 'API › Get Version outputs apiVersion null on this deployment; read the version from its "root" output (the document as sent). Nothing else in the nodes reads the root.',
		};
	},
};

export const mediaType: CheckSpec = {
	check: 'media-type',
	title: 'Request bodies sent as application/vnd.api+json are accepted',
	async run(probe) {
		// A read-only way to send a body: a PATCH of a job that does not exist, with no attribute to change.
		// A server that takes the media type answers 404 (or another refusal of the request itself); one
		// that does not answers 415 before it looks for the job, and the transport repeats the body once as
		// application/json (sendsPlainJson tells).
		const route = routes.updateJob(NO_SUCH_ID);
		const answer = await probe.request(
			'media-type',
			route,
			undefined,
			{ data: { type: 'jobs', id: NO_SUCH_ID, attributes: {} } },
			true,
		);
		const answers =
			'What Content-Type the answers carry is not visible through the node (it reads application/vnd.api+json and application/json alike).';
		const sent = `PATCH /jobs/${NO_SUCH_ID} (no such job, no attribute) with Content-Type application/vnd.api+json`;
		if (answer.ok) {
			return cannotTell(`${sent} was answered with success, so a job with that id exists. ${answers}`, 'Nothing changed (the body names no attribute). Report this output to the package maintainers.');
		}
		const http = httpCodeOf(answer.error);
		if (deployment.sendsPlainJson(probe.ctx)) {
			return {
				result: 'fail',
				observed: `${sent} was refused with HTTP 415; repeated as application/json it was answered ${http ? `HTTP ${http}` : errorText(answer.error)}. ${answers}`,
				fix: 'Nothing to change: the nodes send a refused body once more as application/json and keep doing so for the rest of the execution (one extra request per execution that creates or changes something).',
			};
		}
		if (http === '415') {
			return {
				result: 'fail',
				observed: `${sent}: ${errorText(answer.error)}. ${answers}`,
				fix: 'This deployment refuses request bodies as application/vnd.api+json and as application/json, so every create, update, pause, resume and cancel of the nodes is refused with HTTP 415. Report this output to the package maintainers; reads (Get, Get Many, the trigger) are not affected.',
			};
		}
		if (http === undefined || isTokenFailure(answer.error)) {
			return cannotTell(`${sent}: ${errorText(answer.error)}. ${answers}`);
		}
		return {
			result: 'pass',
			observed: `${sent} was answered HTTP ${http} (${errorCodeOf(answer.error) ?? 'no code'}): the body's media type was not refused. ${answers}`,
			fix: NOTHING_TO_FIX,
		};
	},
};
