// What an ad set's "Results" are, the way Ads Manager counts them: read from its optimization goal
// and promoted object, then counted from exactly one action type per row (research §3.3). Aliases
// of one event are listed best first (`omni_*`, then the aggregated name, then channel-specific
// names) and never summed.

export type ResultType =
  | 'PURCHASE'
  | 'LEAD'
  | 'LEAD_FORM'
  | 'QUALITY_LEAD'
  | 'COMPLETE_REGISTRATION'
  | 'ADD_TO_CART'
  | 'INITIATED_CHECKOUT'
  | 'SUBSCRIBE'
  | 'CONTACT'
  | 'PIXEL_EVENT'
  | 'CUSTOM_CONVERSION'
  | 'APP_INSTALL'
  | 'APP_EVENT'
  | 'LANDING_PAGE_VIEW'
  | 'LINK_CLICK'
  | 'MESSAGING_CONVERSATION'
  | 'THRUPLAY'
  /** Ad sets of the campaign count different results: no single cost per result. */
  | 'MIXED'
  | 'UNKNOWN';

export interface PromotedObject {
  custom_event_type?: string;
  custom_conversion_id?: string;
  application_id?: string;
  pixel_id?: string;
  page_id?: string;
  custom_event_str?: string;
}

export interface ResultSpec {
  type: ResultType;
  /** The custom conversion ID, the app or pixel event name, when the type needs one. */
  detail: string | null;
}

/** Which insight list a result is counted from. */
export type ResultSource = 'actions' | 'video_thruplay_watched_actions';

/** Pixel standard events with aliases Meta reports under their own names. */
const PIXEL_ALIASES: Record<string, readonly string[]> = {
  PURCHASE: [
    'omni_purchase',
    'purchase',
    'offsite_conversion.fb_pixel_purchase',
    'onsite_web_purchase',
    'onsite_web_app_purchase',
    'web_in_store_purchase',
    'web_app_in_store_purchase',
    'app_custom_event.fb_mobile_purchase',
    'onsite_conversion.purchase',
  ],
  LEAD: ['omni_lead', 'lead', 'offsite_conversion.fb_pixel_lead'],
  COMPLETE_REGISTRATION: [
    'omni_complete_registration',
    'complete_registration',
    'offsite_conversion.fb_pixel_complete_registration',
  ],
  ADD_TO_CART: ['omni_add_to_cart', 'add_to_cart', 'offsite_conversion.fb_pixel_add_to_cart'],
  INITIATED_CHECKOUT: [
    'omni_initiated_checkout',
    'initiate_checkout',
    'offsite_conversion.fb_pixel_initiate_checkout',
  ],
  SUBSCRIBE: ['omni_subscribe', 'subscribe', 'offsite_conversion.fb_pixel_subscribe'],
  CONTACT: ['omni_contact', 'contact_total', 'contact', 'offsite_conversion.fb_pixel_contact'],
};

const FIXED_ALIASES: Partial<Record<ResultType, readonly string[]>> = {
  LEAD_FORM: ['onsite_conversion.lead_grouped', 'leadgen_grouped'],
  QUALITY_LEAD: ['onsite_conversion.lead_grouped', 'leadgen_grouped'],
  APP_INSTALL: ['omni_app_install', 'mobile_app_install', 'app_install'],
  LANDING_PAGE_VIEW: ['omni_landing_page_view', 'landing_page_view'],
  LINK_CLICK: ['link_click'],
  MESSAGING_CONVERSATION: ['onsite_conversion.messaging_conversation_started_7d'],
  THRUPLAY: ['video_view'],
};

function snake(event: string): string {
  return event.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/** A pixel event name as Meta writes it in custom_event_type (INITIATE_CHECKOUT is an old spelling). */
function pixelEvent(event: string): string {
  const upper = event.toUpperCase();
  return upper === 'INITIATE_CHECKOUT' ? 'INITIATED_CHECKOUT' : upper;
}

function byPixelEvent(event: string): ResultSpec {
  const name = pixelEvent(event);
  if (name in PIXEL_ALIASES) return { type: name as ResultType, detail: null };
  if (name === 'OTHER') return { type: 'UNKNOWN', detail: null };
  return { type: 'PIXEL_EVENT', detail: name };
}

/**
 * The result an ad set is optimized for. Custom conversions win (their promoted object also names the
 * pixel event they are built on); app goals count app installs or the app event; on-Meta goals count
 * their own action; website conversion goals count the pixel event. Anything else is UNKNOWN.
 */
export function resultOf(
  optimizationGoal: string | null | undefined,
  promoted: PromotedObject | null | undefined,
): ResultSpec {
  const goal = (optimizationGoal ?? '').toUpperCase();
  const p = promoted ?? {};
  if (p.custom_conversion_id) return { type: 'CUSTOM_CONVERSION', detail: String(p.custom_conversion_id) };
  switch (goal) {
    case 'APP_INSTALLS':
    case 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS':
      return { type: 'APP_INSTALL', detail: null };
    case 'LEAD_GENERATION':
      return { type: 'LEAD_FORM', detail: null };
    case 'QUALITY_LEAD':
      return { type: 'QUALITY_LEAD', detail: null };
    case 'LANDING_PAGE_VIEWS':
      return { type: 'LANDING_PAGE_VIEW', detail: null };
    case 'LINK_CLICKS':
      return { type: 'LINK_CLICK', detail: null };
    case 'CONVERSATIONS':
      return { type: 'MESSAGING_CONVERSATION', detail: null };
    case 'THRUPLAY':
      return { type: 'THRUPLAY', detail: null };
  }
  const conversionGoal = goal === '' || goal === 'OFFSITE_CONVERSIONS' || goal === 'VALUE';
  if (!conversionGoal || !p.custom_event_type) return { type: 'UNKNOWN', detail: null };
  if (p.application_id) return { type: 'APP_EVENT', detail: pixelEvent(p.custom_event_type) };
  return byPixelEvent(p.custom_event_type);
}

/** Action types of a result, best first; exactly one is read per row. */
export function resultAliases(spec: ResultSpec): readonly string[] {
  const { type, detail } = spec;
  if (type === 'CUSTOM_CONVERSION') return detail ? [`offsite_conversion.custom.${detail}`] : [];
  if (type === 'APP_EVENT') return detail ? [`app_custom_event.fb_mobile_${snake(detail)}`] : [];
  if (type === 'PIXEL_EVENT')
    return detail
      ? [`omni_${snake(detail)}`, snake(detail), `offsite_conversion.fb_pixel_${snake(detail)}`]
      : [];
  return PIXEL_ALIASES[type] ?? FIXED_ALIASES[type] ?? [];
}

export function resultSource(spec: ResultSpec): ResultSource {
  return spec.type === 'THRUPLAY' ? 'video_thruplay_watched_actions' : 'actions';
}

const NAMES: Record<ResultType, string> = {
  PURCHASE: 'Purchases',
  LEAD: 'Leads (website)',
  LEAD_FORM: 'Leads (form)',
  QUALITY_LEAD: 'Quality leads',
  COMPLETE_REGISTRATION: 'Registrations completed',
  ADD_TO_CART: 'Adds to cart',
  INITIATED_CHECKOUT: 'Checkouts initiated',
  SUBSCRIBE: 'Subscriptions',
  CONTACT: 'Contacts',
  PIXEL_EVENT: 'Website events',
  CUSTOM_CONVERSION: 'Custom conversion',
  APP_INSTALL: 'App installs',
  APP_EVENT: 'App events',
  LANDING_PAGE_VIEW: 'Landing page views',
  LINK_CLICK: 'Link clicks',
  MESSAGING_CONVERSATION: 'Messaging conversations started',
  THRUPLAY: 'ThruPlays',
  MIXED: 'Multiple result types',
  UNKNOWN: 'Unknown',
};

/** The human name Ads Manager shows in its Results column; custom conversions by their name. */
export function resultName(spec: ResultSpec, customConversionName?: string | null): string {
  const base = NAMES[spec.type];
  if (spec.type === 'CUSTOM_CONVERSION') return `${base}: ${customConversionName ?? spec.detail ?? '?'}`;
  if ((spec.type === 'APP_EVENT' || spec.type === 'PIXEL_EVENT') && spec.detail)
    return `${base}: ${spec.detail.toLowerCase().replace(/_/g, ' ')}`;
  return base;
}

/** A campaign's result: its ad sets' when they all agree (ignoring ad sets never resolved), else MIXED. */
export function campaignResult(adSetResults: readonly (ResultSpec | null)[]): ResultSpec | null {
  const known = adSetResults.filter((r): r is ResultSpec => r !== null);
  if (known.length === 0) return null;
  const keys = new Set(known.map((r) => `${r.type}/${r.detail ?? ''}`));
  return keys.size === 1 ? (known[0] ?? null) : { type: 'MIXED', detail: null };
}
