// @ts-nocheck
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsHelper,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { isExpression, NodeHelpers, Workflow } from 'n8n-workflow';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';

export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';
export const CREDENTIAL_ID = 'cred-ftm-1';

const credentialType = new FileTransferManagerOAuth2Api();

/**
 * A credentials store that behaves like n8n's CredentialsHelper (packages/cli credentials-helper) for our
 * credential: it applies the credential type's defaults, resolves its expressions ($self), runs its
 * preAuthentication when the expirable token field is empty or expired and stores what it returns, and
 * applies its `authenticate` (the Bearer header) to each request.
 */
export class TestCredentialsHelper implements ICredentialsHelper {
	private readonly stored = new Map<string, ICredentialDataDecryptedObject>();

	/** Every token that preAuthentication stored, in order (what n8n would persist in its database). */
	readonly tokenUpdates: string[] = [];

	set(data: ICredentialDataDecryptedObject, id = CREDENTIAL_ID): void {
		this.stored.set(id, { ...data });
	}

	raw(id = CREDENTIAL_ID): ICredentialDataDecryptedObject | undefined {
		return this.stored.get(id);
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** n8n's CredentialsHelper.authenticate for our credential type. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		return await applyAuthenticate(credentialType.authenticate, credentials, requestOptions, workflow, node);
	}

	/** n8n's preAuthentication: fetch when the expirable field is empty, expired (after a 401) or under test. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;
		const testing = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !testing) return undefined;
		const output = (await credentialType.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		if (!node.credentials) return undefined;
		const id = node.credentials[CREDENTIAL_TYPE]?.id ?? '';
		const stored = this.stored.get(id) ?? {};
		const persist: ICredentialDataDecryptedObject = { ...stored };
		for (const [key, value] of Object.entries(output)) {
			if (key === expirable.name || !isExpression(stored[key])) persist[key] = value as never;
		}
		this.stored.set(id, persist);
		const token = output[expirable.name];
		if (typeof token === 'string') this.tokenUpdates.push(token);
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new Error(`getCredentials(${nodeCredentials.id}, ${type}) is not used by these tests`);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		_executeData?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.stored.get(nodeCredentials.id ?? '');
		if (!data || type !== CREDENTIAL_TYPE) {
			throw new Error(`No credential "${nodeCredentials.id}" of type ${type}`);
		}
		if (raw) return structuredClone(data);
		return this.applyDefaultsAndExpressions(structuredClone(data), mode);
	}

	/** What n8n's CredentialsHelper.applyDefaultsAndOverwrites does for a credential without overwrites. */
	applyDefaultsAndExpressions(
		data: ICredentialDataDecryptedObject,
		mode: WorkflowExecuteMode = 'internal',
	): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(CREDENTIAL_TYPE);
		const withDefaults = NodeHelpers.getNodeParameters(properties, data as never, true, false, null, null) as
			| ICredentialDataDecryptedObject
			| null;
		const decrypted: ICredentialDataDecryptedObject = { ...(withDefaults ?? {}) };
		const node: INode = {
			id: 'mock',
			name: 'mock',
			type: 'mock',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: {
				getByName: () => ({ description: { properties: [] } }) as never,
				getByNameAndVersion: () => ({ description: { properties: [] } }) as never,
				getKnownTypes: () => ({}),
			},
		});
		return workflow.expression.getComplexParameterValue(
			node,
			decrypted as never,
			mode,
			{},
			undefined,
			undefined,
			decrypted,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored.set(nodeCredentials.id ?? '', { ...data });
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new Error('The credential does not use n8n\'s OAuth2 client');
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		if (type !== CREDENTIAL_TYPE) return [];
		return credentialType.properties;
	}
}

/**
 * What n8n's CredentialsHelper.authenticate does with a credential type's `authenticate`: a function is
 * called as it is; a generic object has each key and value resolved as an expression with $credentials.
 */
export async function applyAuthenticate(
	auth: ICredentialType['authenticate'],
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	workflow?: Workflow,
	node?: INode,
): Promise<IHttpRequestOptions> {
	if (typeof auth === 'function') return await auth(credentials, requestOptions);
	if (!auth || typeof auth !== 'object' || auth.type !== 'generic') return requestOptions;
	if (!workflow || !node) throw new Error('Workflow and node are required for declarative credential authentication');
	const resolve = (value: unknown): unknown =>
		isExpression(value)
			? String(
					workflow.expression.getSimpleParameterValue(
						node,
						value as string,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					) || '',
				)
			: value;
	requestOptions.headers ??= {};
	for (const [outerKey, outerValue] of Object.entries(auth.properties)) {
		const target = ((requestOptions as unknown as Record<string, Record<string, unknown>>)[outerKey] ??= {});
		for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
			target[String(resolve(key))] = resolve(value);
		}
	}
	return requestOptions;
}
