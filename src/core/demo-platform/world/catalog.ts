// The fixed shape of the demo agency: which accounts exist and how they differ. Names and ids vary
// with the seed; currencies, timezones, permissions and statuses do not, so tests can rely on them.

export interface AccountSpec {
  business: number;
  names: readonly string[];
  currency: string;
  timezone: string;
  userTasks: readonly string[];
  accountStatus: 1 | 2;
  disableReason: number;
  /** 'large' uses the largeAccountCampaigns option; otherwise an inclusive range. */
  campaigns: 'large' | readonly [number, number];
  countries: readonly string[];
  fxPerUsd: number;
  /** Market CPM level relative to the US. */
  cpmLevel: number;
}

export const BUSINESS_NAMES: readonly (readonly string[])[] = [
  ['Northwind Outfitters', 'Blue Ridge Apparel', 'Cascade Goods Co.'],
  ['Maison Lumière', 'Atelier Rive', 'Verdane Beauty Group'],
  ['Sakura Home Holdings', 'Kumo Living', 'Hinode Retail Group'],
];

export const ACCOUNT_SPECS: readonly AccountSpec[] = [
  {
    business: 0,
    names: ['Northwind – US Ecommerce', 'Blue Ridge – US Store', 'Cascade – DTC US'],
    currency: 'USD',
    timezone: 'America/Los_Angeles',
    userTasks: ['DRAFT', 'ANALYZE', 'ADVERTISE', 'MANAGE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: 'large',
    countries: ['US', 'CA', 'GB', 'AU', 'DE', 'NZ', 'IE', 'MX'],
    fxPerUsd: 1,
    cpmLevel: 1,
  },
  {
    business: 1,
    names: ['Lumière – France & Benelux', 'Rive – EU Shop', 'Verdane – EU'],
    currency: 'EUR',
    timezone: 'Europe/Paris',
    userTasks: ['DRAFT', 'ANALYZE', 'ADVERTISE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [12, 18],
    countries: ['FR', 'DE', 'ES', 'IT', 'NL', 'BE', 'LU', 'AT'],
    fxPerUsd: 0.92,
    cpmLevel: 0.8,
  },
  {
    business: 1,
    names: ['Lumière – UK', 'Rive – UK & Ireland', 'Verdane – UK'],
    currency: 'GBP',
    timezone: 'Europe/London',
    userTasks: ['ANALYZE', 'ADVERTISE', 'MANAGE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [9, 14],
    countries: ['GB', 'IE'],
    fxPerUsd: 0.79,
    cpmLevel: 0.9,
  },
  {
    business: 2,
    names: ['Sakura – Japan', 'Kumo – JP Online', 'Hinode – Japan'],
    currency: 'JPY',
    timezone: 'Asia/Tokyo',
    userTasks: ['DRAFT', 'ANALYZE', 'ADVERTISE', 'MANAGE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [10, 16],
    countries: ['JP'],
    fxPerUsd: 150,
    cpmLevel: 0.85,
  },
  {
    business: 2,
    names: ['Sakura – ANZ (read only)', 'Kumo – Oceania (read only)', 'Hinode – ANZ (read only)'],
    currency: 'AUD',
    timezone: 'Australia/Sydney',
    userTasks: ['ANALYZE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [5, 8],
    countries: ['AU', 'NZ'],
    fxPerUsd: 1.52,
    cpmLevel: 0.9,
  },
  {
    business: 0,
    names: ['Northwind – Legacy East', 'Blue Ridge – Old Account', 'Cascade – Legacy'],
    currency: 'USD',
    timezone: 'America/New_York',
    userTasks: ['ANALYZE', 'ADVERTISE', 'MANAGE'],
    accountStatus: 2,
    disableReason: 3,
    campaigns: [5, 7],
    countries: ['US', 'CA'],
    fxPerUsd: 1,
    cpmLevel: 1,
  },
];

/**
 * Accounts owned by the agency's clients, shared with one of its businesses: reachable only through
 * `/{business}/client_ad_accounts`. One the token may read, one view-only, one it cannot read at all.
 */
export interface ClientAccountSpec extends Omit<AccountSpec, 'business' | 'names' | 'campaigns'> {
  /** The agency business (index into BUSINESS_NAMES) that has it as a client account. */
  agency: number;
  owner: string;
  name: string;
  campaigns: readonly [number, number];
}

export const CLIENT_ACCOUNT_SPECS: readonly ClientAccountSpec[] = [
  {
    agency: 0,
    owner: 'Harbor Coffee Roasters',
    name: 'Harbor Coffee – US (client)',
    currency: 'USD',
    timezone: 'America/Chicago',
    userTasks: ['DRAFT', 'ANALYZE', 'ADVERTISE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [4, 6],
    countries: ['US'],
    fxPerUsd: 1,
    cpmLevel: 1,
  },
  {
    agency: 1,
    owner: 'Alpenglow Outdoor GmbH',
    name: 'Alpenglow – DACH (client, view only)',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    userTasks: ['ANALYZE'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [3, 5],
    countries: ['DE', 'AT'],
    fxPerUsd: 0.92,
    cpmLevel: 0.8,
  },
  {
    agency: 1,
    owner: 'Brightside Studio Ltd',
    name: 'Brightside – UK (client, drafts only)',
    currency: 'GBP',
    timezone: 'Europe/London',
    userTasks: ['DRAFT'],
    accountStatus: 1,
    disableReason: 0,
    campaigns: [2, 3],
    countries: ['GB'],
    fxPerUsd: 0.79,
    cpmLevel: 0.9,
  },
];

/** Countries small enough for a narrow, saturating audience. */
export const SMALL_COUNTRIES = new Set(['NZ', 'IE', 'LU', 'BE', 'AT']);

export const CAMPAIGN_THEMES = [
  'Prospecting',
  'Retargeting',
  'Advantage+ Shopping',
  'Catalog Sales',
  'Lookalike 1%',
  'Broad',
  'Evergreen',
  'Seasonal Push',
  'New Arrivals',
  'Bestsellers',
  'Bundle Offer',
  'Loyalty',
] as const;

export const CAMPAIGN_HOOKS = [
  'Spring Sale',
  'Summer Drop',
  'Black Friday',
  'Always-on',
  'Free Shipping',
  'Gift Guide',
  'Launch',
  'Clearance',
  'UGC Test',
  'Q4 Scale',
] as const;

export const AD_FORMATS = [
  'UGC video',
  'Carousel – bestsellers',
  'Static – lifestyle',
  'Reel – unboxing',
  'Collection – catalog',
  'Static – offer',
  'Video – testimonial',
  'Story – countdown',
] as const;
