// The fixed token the embedded demo platform accepts for every demo account (DESIGN §3). The one
// definition: the simulator, provisioning and connecting demo accounts all read it from here.
export const DEMO_TOKEN = 'demo-token';

/** A system user's token on the demo platform (Business Manager → System users): never expires. */
export const DEMO_SYSTEM_USER_TOKEN = 'demo-system-user-token';
