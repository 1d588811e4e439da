// package.json has no path alias; esbuild keeps only the named field in a bundle (the browser's too), not the file.
// eslint-disable-next-line no-restricted-imports -- the one file above src/ that the code reads
import { version } from '../../package.json';

/** The release this code is (package.json's semantic version; CHANGELOG.md's top entry says what it brought). */
export const PACER_VERSION: string = version;
