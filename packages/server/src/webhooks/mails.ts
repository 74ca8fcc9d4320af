import { composeMail } from '../platform/mail/templates.js';

// Mails about a workspace's webhook endpoint (issue 24 item 3), to its owners and admins: once
// when a delivery first runs out of retries, and once when failing for 5 days disabled it.

export const deliveriesExhausted = (to: string, apiName: string, endpointUrl: string, eventType: string, deliveriesUrl: string) =>
  composeMail(
    to,
    `Webhook deliveries of ${apiName} are failing`,
    [
      `A ${eventType} event could not be delivered to ${endpointUrl} after 8 attempts over more than a day.`,
      'Gatehouse keeps trying new events there. If the endpoint keeps failing for 5 days it is disabled; events stay listed for 30 days, so your receiver can catch up once it answers again.',
    ],
    { label: 'See the deliveries', url: deliveriesUrl },
  );

export const endpointDisabled = (to: string, apiName: string, endpointUrl: string, deliveriesUrl: string) =>
  composeMail(
    to,
    `A webhook endpoint of ${apiName} was disabled`,
    [
      `${endpointUrl} has failed every delivery for 5 days, so Gatehouse stopped sending to it.`,
      'Enable it again once it answers; deliveries still pending resume, and a replay sends every event since a time you choose.',
    ],
    { label: 'See the deliveries', url: deliveriesUrl },
  );
