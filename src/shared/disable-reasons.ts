// Meta's ad account disable_reason codes (research §2.1) and what each means for an analyst.

const REASONS: Record<number, { name: string; text: string }> = {
  1: { name: 'ADS_INTEGRITY_POLICY', text: 'the account was disabled for breaking advertising policies' },
  2: { name: 'ADS_IP_REVIEW', text: 'the account is under intellectual property review' },
  3: {
    name: 'RISK_PAYMENT',
    text: 'the account was disabled over a payment risk (failed or disputed payment)',
  },
  4: { name: 'GRAY_ACCOUNT_SHUT_DOWN', text: 'the account was shut down' },
  5: { name: 'ADS_AFC_REVIEW', text: 'the account is under review' },
  6: { name: 'BUSINESS_INTEGRITY_RAR', text: 'the business was restricted for integrity reasons' },
  7: { name: 'PERMANENT_CLOSE', text: 'the account was closed permanently' },
  8: { name: 'UNUSED_RESELLER_ACCOUNT', text: 'the reseller account was closed as unused' },
  9: { name: 'UNUSED_ACCOUNT', text: 'the account was closed as unused' },
};

/** disable_reason → its Meta name, or null for 0 (none). Unknown codes keep their number. */
export function disableReasonName(code: number | null | undefined): string | null {
  if (!code) return null;
  return REASONS[code]?.name ?? `DISABLE_REASON_${code}`;
}

/** disable_reason → a sentence part for summaries and evidence. */
export function disableReasonText(code: number | null | undefined): string {
  if (!code) return 'the account is disabled';
  return REASONS[code]?.text ?? `the account is disabled (reason ${code})`;
}
