// The agency's reporting currency (an addition to the spec): the currency whole-workspace insights
// are also totalled in when its accounts use several, and the exchange rates to it. Rates are decimal
// strings ("1.0842") kept exactly as entered: amounts stay integer micros, converted with exact
// integer arithmetic and rounded once to the micro.
import { z } from 'zod';

const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'a currency is an ISO 4217 code such as USD');

/** Units of the reporting currency per one unit of the other currency, e.g. EUR → USD "1.0842". */
const Rate = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,9})?$/, 'a rate is a positive decimal such as "1.0842" (at most 9 decimals)')
  .refine((rate) => /[1-9]/.test(rate), 'a rate is greater than zero');

export const ReportingCurrencySchema = z
  .strictObject({
    currency: CurrencyCode,
    rates: z.record(CurrencyCode, Rate),
  })
  .refine((value) => !(value.currency in value.rates), {
    message: 'the reporting currency needs no rate to itself',
  });
export type ReportingCurrency = z.infer<typeof ReportingCurrencySchema>;
