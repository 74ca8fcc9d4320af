#!/usr/bin/env node
// gatehouse-sdk: send dead-lettered usage again, or show what is set aside.
// Reads GATEHOUSE_SECRET_KEY and GATEHOUSE_BASE_URL like the meter does.
import { DeadLetters } from './usage/dead-letters.js';
import { createMeter } from './meter.js';

const usage = `usage: gatehouse-sdk <replay|list> [--dir <journal folder>]   (default folder: .gatehouse)`;

async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  const dirFlag = argv.indexOf('--dir');
  const dir = dirFlag >= 0 ? argv[dirFlag + 1] : '.gatehouse';
  if (!dir || (command !== 'replay' && command !== 'list')) {
    console.error(usage);
    return 2;
  }
  if (command === 'list') {
    const letters = await new DeadLetters(dir).list();
    for (const letter of letters) console.log(`${letter.at}  ${letter.item.idempotency_key}  ${letter.item.count} x ${letter.item.status_code}  ${letter.detail}`);
    console.log(`${letters.length} dead letter(s) in ${dir}`);
    return 0;
  }
  // A meter on the same folder also delivers anything its journal still holds.
  const meter = createMeter({ journalDir: dir, onError: (error) => console.error(`gatehouse-sdk: ${error.message}`) });
  try {
    await meter.ready;
    const result = await meter.replayDeadLetters();
    console.log(`delivered ${result.delivered}, still set aside ${result.remaining}`);
    return result.remaining === 0 ? 0 : 1;
  } finally {
    await meter.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (error: Error) => {
  console.error(`gatehouse-sdk: ${error.message}`);
  process.exit(1);
});
