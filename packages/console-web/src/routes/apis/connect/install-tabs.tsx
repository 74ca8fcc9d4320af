// Install lines and code for each framework the SDK has an adapter for, in Radix tabs.
import * as Tabs from '@radix-ui/react-tabs';
import { CopyButton } from '../../../components/copy.js';
import { ENV_LINE, snippets, type SnippetValues } from './snippets.js';

function Block({ label, text }: { label: string; text: string }) {
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="small muted">{label}</span>
        <CopyButton value={text} label={`Copy ${label.toLowerCase()}`} />
      </div>
      <pre tabIndex={0} role="region" aria-label={label}>
        <code>{text}</code>
      </pre>
    </div>
  );
}

export function InstallTabs({ values }: { values: SnippetValues }) {
  const all = snippets(values);
  return (
    <section className="card" aria-labelledby="install-heading">
      <h2 id="install-heading">Add the SDK to your API</h2>
      <p className="muted">
        The SDK admits or refuses each request in your process from a snapshot of your customers, and reports usage in batches. Set the secret in the environment, then
        wrap your server:
      </p>
      <Block label="Environment" text={ENV_LINE} />
      <Tabs.Root defaultValue={all[0]!.id}>
        <Tabs.List aria-label="Framework">
          {all.map((snippet) => (
            <Tabs.Trigger key={snippet.id} value={snippet.id}>
              {snippet.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {all.map((snippet) => (
          <Tabs.Content key={snippet.id} value={snippet.id}>
            <Block label="Install" text={snippet.install} />
            <Block label="Code" text={snippet.code} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
