export function migrationNames(dir: string): string[];
export function migrationListPlugin(): import('esbuild').Plugin;
