export function pacerNodeOptions(): string[];
