import type { CommandRegistrar } from '../program.js';

/** Commands of this area are added here by the issue that builds the area. */
export const registerIntegrationCommands: CommandRegistrar = () => {};
