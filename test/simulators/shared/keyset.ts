/** Shared with the sandbox: see src/sandbox/simulators/shared. */
export * from '../../../src/sandbox/simulators/shared/keyset';
