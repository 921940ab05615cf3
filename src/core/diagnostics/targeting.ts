// Targeting as the platform stores it (Graph `targeting`, or the spec's camelCase view), reduced to
// the dimensions two ad sets can overlap on, and a 0-1 similarity between two of them.
import type { Targeting } from './types';

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const idsOf = (value: unknown): string[] =>
  asArray(value)
    .map((item) =>
      typeof item === 'string' || typeof item === 'number' ? String(item) : String(asObject(item).id ?? ''),
    )
    .filter((id) => id !== '');

export function parseTargeting(text: string | null): Targeting {
  let raw: Json;
  try {
    raw = asObject(text ? JSON.parse(text) : {});
  } catch {
    raw = {};
  }
  const geo = asObject(raw.geo_locations ?? raw.geoLocations);
  const countries = Array.isArray(raw.geoLocations)
    ? idsOf(raw.geoLocations)
    : idsOf(geo.countries).map((c) => c.toUpperCase());
  const genderValues = asArray(raw.genders).map((g) => String(g).toLowerCase());
  const genders =
    genderValues.length === 0 ||
    genderValues.includes('all') ||
    (genderValues.includes('1') && genderValues.includes('2'))
      ? ['all']
      : genderValues.map((g) => (g === '1' ? 'male' : g === '2' ? 'female' : g));
  const interests = [
    ...idsOf(raw.interests),
    ...asArray(raw.flexible_spec).flatMap((spec) => idsOf(asObject(spec).interests)),
  ];
  return {
    countries: [...new Set(countries)].sort(),
    ageMin: Number(raw.age_min ?? raw.ageMin ?? 18) || 18,
    ageMax: Number(raw.age_max ?? raw.ageMax ?? 65) || 65,
    genders,
    audiences: [...new Set(idsOf(raw.custom_audiences ?? raw.customAudiences))].sort(),
    interests: [...new Set(interests)].sort(),
  };
}

function setOverlap(a: readonly string[], b: readonly string[]): number {
  // No restriction on one side means it contains the other's people.
  if (a.length === 0 || b.length === 0) return 1;
  const bs = new Set(b);
  const shared = a.filter((x) => bs.has(x)).length;
  return shared / Math.min(a.length, b.length);
}

/**
 * Share of the smaller audience that the other one also targets, per dimension, multiplied: 1 for
 * identical targeting, 0 when they cannot meet (different countries, disjoint ages or genders).
 */
export function targetingOverlap(a: Targeting, b: Targeting): number {
  const countries =
    a.countries.length === 0 && b.countries.length === 0 ? 1 : setOverlap(a.countries, b.countries);
  const lo = Math.max(a.ageMin, b.ageMin);
  const hi = Math.min(a.ageMax, b.ageMax);
  const ages = hi < lo ? 0 : (hi - lo + 1) / Math.min(a.ageMax - a.ageMin + 1, b.ageMax - b.ageMin + 1);
  const genders =
    a.genders.includes('all') || b.genders.includes('all') ? 1 : setOverlap(a.genders, b.genders);
  const audiences = setOverlap(a.audiences, b.audiences);
  const interests = setOverlap(a.interests, b.interests);
  return Math.round(countries * ages * genders * audiences * interests * 10_000) / 10_000;
}
