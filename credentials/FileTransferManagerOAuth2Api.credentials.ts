import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { credential } from '../nodes/shared/transport';

/**
 * OAuth 2.0 client credentials for the File Transfer Management Service. The package makes the token
 * request itself (preAuthentication) instead of n8n's generic OAuth2 client, so that the client secret
 * and the token never follow a redirect to another host, the request is bounded in time and size, and
 * only a usable bearer token is ever stored. n8n stores the token with the credential, uses it until the
 * service answers 401, then fetches one new token and repeats the request once.
 */
export class FileTransferManagerOAuth2Api implements ICredentialType {
	name = 'fileTransferManagerOAuth2Api';

	displayName = 'File Transfer Manager OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/FileTransferManager/fileTransferManager.svg',
		dark: 'file:../nodes/FileTransferManager/fileTransferManager.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-file-transfer-manager/n8n-nodes-file-transfer-manager#credentials';

	httpRequestNode = {
		name: 'File Transfer Manager',
		docsUrl: 'https://github.com/n8n-nodes-file-transfer-manager/n8n-nodes-file-transfer-manager#credentials',
		apiBaseUrlPlaceholder: 'https://api.acme.example.com/jobs',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.acme.example.com',
			description:
				'The API host of your deployment (the "api." subdomain of its web address). A path prefix such as /v2 is allowed; a trailing slash is ignored. The token is sent only to this origin.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Generated in the API section of the web interface by the product administrator',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Generated together with the Client ID. Treat it like a password: if it is exposed, generate new client credentials.',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the TLS certificate of the API cannot be verified. Leave off unless you run the service with a self-signed certificate.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await credential.requestToken.call(this, credentials);
	}

	/**
	 * The Bearer header, set by a function rather than n8n's generic `Bearer {{$credentials.accessToken}}`:
	 * the same header, without evaluating an expression for every request (see bench/README.md), and only
	 * for a request to the Base URL's origin. n8n calls this for every request made with the credential,
	 * also from its HTTP Request node, whose URL can be any host: any other target is refused before
	 * anything is sent. A redirect to another origin is followed without the header: n8n would otherwise
	 * add it again there (the HTTP Request node up to 4.3 does by default). See docs/credential-origin.md.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		credential.assertCredentialOrigin(credentials, requestOptions);
		const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
		return {
			...requestOptions,
			sendCredentialsOnCrossOriginRedirect: false,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl || "").trim().replace(/\\/+$/, "") }}',
			url: '/',
			method: 'GET',
			disableFollowRedirect: true,
		},
	};
}
