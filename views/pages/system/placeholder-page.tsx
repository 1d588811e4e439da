import { useMatches } from 'react-router';

/** A screen whose issue has not landed yet: its heading only, never invented data. */
export function Component() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as { title?: string } | undefined;
  return (
    <div className="page">
      <h1>{handle?.title ?? 'Coming soon'}</h1>
      <p className="muted">This screen is not built yet.</p>
    </div>
  );
}
