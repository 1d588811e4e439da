import { ImportScreen } from './import-screen.js';

export function Component() {
  return <ImportScreen kind="brands" />;
}
