import { useSyncExternalStore } from 'react';

const never = () => () => undefined;
const inBrowser = () => typeof window.PublicKeyCredential === 'function';
const onServer = () => null;

/**
 * Whether this browser can use passkeys (WebAuthn): null on the server and while hydrating (so both render the
 * same tree), then true or false. Small on purpose: the WebAuthn code itself loads on a click (views/data/webauthn.ts).
 */
export const usePasskeySupport = (): boolean | null => useSyncExternalStore(never, inBrowser, onServer);
