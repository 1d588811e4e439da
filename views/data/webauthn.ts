/**
 * The browser's half of passkeys (docs/decisions/0104), on the native navigator.credentials API: the server's
 * options (JSON, binary fields in base64url) become the buffers WebAuthn takes, and the credential it answers becomes
 * JSON again for the server. Imported lazily, when a passkey button is pressed, so no page's first load carries it.
 */

const toBuffer = (value: string): ArrayBuffer => {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
};

const toBase64url = (buffer: ArrayBuffer): string => {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

interface CredentialDescriptorJSON {
  id: string;
  type: 'public-key';
  transports?: string[];
}

export interface CreationOptionsJSON {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: Array<{ alg: number; type: 'public-key' }>;
  timeout?: number;
  excludeCredentials?: CredentialDescriptorJSON[];
  authenticatorSelection?: AuthenticatorSelectionCriteria;
  attestation?: AttestationConveyancePreference;
}

export interface RequestOptionsJSON {
  challenge: string;
  rpId?: string;
  timeout?: number;
  allowCredentials?: CredentialDescriptorJSON[];
  userVerification?: UserVerificationRequirement;
}

const descriptors = (list: CredentialDescriptorJSON[] | undefined): PublicKeyCredentialDescriptor[] | undefined =>
  list?.map((c) => ({ id: toBuffer(c.id), type: c.type, transports: c.transports as AuthenticatorTransport[] | undefined }));

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** navigator.credentials.create() for a new passkey: answers the registration response as JSON. */
export async function createPasskey(options: CreationOptionsJSON): Promise<unknown> {
  const credential = (await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: toBuffer(options.challenge),
      user: { ...options.user, id: toBuffer(options.user.id) },
      excludeCredentials: descriptors(options.excludeCredentials),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('No passkey was made.');
  const response = credential.response as AuthenticatorAttestationResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      transports: typeof response.getTransports === 'function' ? response.getTransports() : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** navigator.credentials.get() with one of the site's passkeys: answers the assertion as JSON. */
export async function getPasskey(options: RequestOptionsJSON): Promise<unknown> {
  const credential = (await navigator.credentials.get({
    publicKey: { ...options, challenge: toBuffer(options.challenge), allowCredentials: descriptors(options.allowCredentials) },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('No passkey was chosen.');
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** A cancelled or timed-out browser prompt says so plainly (its own message is technical). */
export function passkeyPromptMessage(error: unknown, fallback: string): string | undefined {
  if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return 'The passkey prompt was closed or timed out.';
  if (error instanceof DOMException && error.name === 'InvalidStateError') return 'This authenticator already holds a passkey for your account.';
  return error instanceof DOMException ? fallback : undefined;
}
