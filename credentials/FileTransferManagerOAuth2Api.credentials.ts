import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * OAuth 2.0 client credentials for the File Transfer Management Service. n8n's own OAuth2 path
 * fetches the token, stores it with the credential and fetches a new one when a request gets 401.
 */
export class FileTransferManagerOAuth2Api implements ICredentialType {
	name = 'fileTransferManagerOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'File Transfer Manager OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/FileTransferManager/fileTransferManager.svg',
		dark: 'file:../nodes/FileTransferManager/fileTransferManager.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-file-transfer-manager#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.acme.example.com',
			description:
				'The API host of your deployment (the "api." subdomain of its web address). A path prefix such as /v2 is allowed; a trailing slash is ignored.',
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'clientCredentials',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{ String($self["baseUrl"] || "").trim().replace(/\\/+$/, "") + "/oauth/token" }}',
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
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the TLS certificate of the API cannot be verified. Leave off unless you run the service with a self-signed certificate.',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl || "").trim().replace(/\\/+$/, "") }}',
			url: '/',
			method: 'GET',
		},
	};
}
