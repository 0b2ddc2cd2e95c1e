/**
 * Partition keys of the uploads store's items on the jobs table; infra builds the API's grant from these, so a
 * renamed prefix cannot leave the deployed role behind (the emulators check no IAM).
 */
/** An upload's item (`UPLOAD#<id>` / META). */
export const uploadPk = (id: string): string => `UPLOAD#${id}`;
/** One item per pending upload under its key, for the pending-uploads quota (`UPLOADS_PENDING#<keyId>`). */
export const pendingUploadsPk = (ownerKeyId: string): string => `UPLOADS_PENDING#${ownerKeyId}`;
