// The three starting points of a new API (docs/decisions.md, "Presets"), each in a sentence.
// Every value can be changed in the API's settings afterwards.
import type { CreateAPIInBody } from '../../api/records.js';

export type PresetName = NonNullable<CreateAPIInBody['preset']>;

export const PRESETS: { name: PresetName; title: string; description: string }[] = [
  {
    name: 'payg',
    title: 'Pay as you go',
    description: 'Customers buy prepaid credit and each successful request costs 0.001; a new customer gets 1.00 of welcome credit, at up to 10 requests a second.',
  },
  {
    name: 'free',
    title: 'Free',
    description: 'Nothing is charged: each customer gets 10,000 requests a month, at up to 5 a second.',
  },
  {
    name: 'subscriptions',
    title: 'Subscriptions',
    description: 'Customers subscribe to plans you make; without a plan they get 1,000 requests a month, at up to 20 a second.',
  },
];
