import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';

export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';
export const CREDENTIAL_ID = 'cred-ftm-1';

const credentialType = new FileTransferManagerOAuth2Api();

/**
 * A credentials store that behaves like n8n's CredentialsHelper for our credential: it applies the
 * credential type's defaults, resolves its expressions ($self), and keeps the OAuth token data that
 * n8n-core hands back after fetching a token, so that later executions reuse it.
 */
export class TestCredentialsHelper implements ICredentialsHelper {
	private readonly stored = new Map<string, ICredentialDataDecryptedObject>();

	/** Every token that n8n-core stored, in order (what n8n would persist in its database). */
	readonly tokenUpdates: string[] = [];

	set(data: ICredentialDataDecryptedObject, id = CREDENTIAL_ID): void {
		this.stored.set(id, { ...data });
	}

	raw(id = CREDENTIAL_ID): ICredentialDataDecryptedObject | undefined {
		return this.stored.get(id);
	}

	getParentTypes(name: string): string[] {
		return name === CREDENTIAL_TYPE ? ['oAuth2Api'] : [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return requestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
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
		if (data.oauthTokenData !== undefined) decrypted.oauthTokenData = data.oauthTokenData;
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

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const id = nodeCredentials.id ?? '';
		const current = this.stored.get(id) ?? {};
		this.stored.set(id, { ...current, oauthTokenData: data.oauthTokenData });
		const token = (data.oauthTokenData as { access_token?: string } | undefined)?.access_token;
		if (token) this.tokenUpdates.push(token);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		if (type !== CREDENTIAL_TYPE) return [];
		return credentialType.properties;
	}
}
