export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';
