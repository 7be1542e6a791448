/** The HubSpot simulator lives in src/sandbox/simulators/hubspot, shared by the tests and the sandbox. */
export * from '../../../src/sandbox/simulators/hubspot';
