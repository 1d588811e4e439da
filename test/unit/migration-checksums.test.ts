import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(import.meta.dirname, '../../migrations');

/**
 * The SHA-256 of each landed migration's file bytes. A database applies a migration once and records only its name,
 * so an edit after it landed never reaches the databases that already ran it (20261124150000 was edited that way and
 * needed 20261128120000 to converge). A migration not listed here has not landed and may still change; the branch
 * that lands it adds its line.
 */
const LANDED: Array<[name: string, sha256: string]> = [
  ['20261121000000_initial_schema', '8f9e978c050dd9bd46226fcfcc99c623b9f0b3a8cf814766556105ec235addd6'],
  ['20261121100000_record_search_and_counts', 'fca85551618630199f2492e3118e476186d425662e2c041c95574d5b23c37aa9'],
  ['20261121300000_contacts_lower_email_index', 'e3f260099bc35170dcc131cdcb3b6f64f7c770141565bd4c504195f940b6b2fe'],
  ['20261121300001_import_locks', '2f866cde6b4c74a017ffd5389ef122cff38e6849e0f27c451457bd2629439ec9'],
  ['20261121400000_sync_locks_and_notices', '835a312e52cc5f4a47b901bcb82044541cc98e746b9f347f99ab2dbe9b7a0065'],
  ['20261121500000_contacts_email_owner_index', '14839bae392d70dd278352dffb46d343b71024cf0ee3febe84f6a006d0332131'],
  ['20261122000000_derived_data_versions', '6df4fccd3a1b3a9970059b6433e3e52103ab5df9763c5316410fede555aae4e8'],
  ['20261124120000_user_preferences', '1358ab2a18f6f83f57658bceb02a15451f7a2c8816bf883cd78d31b1f878cfc0'],
  ['20261124120100_list_sort_indexes', '32bb5f70023f451c7af6b19f047559d37259df24056a75731498ef089824968d'],
  ['20261124120200_contacts_sort_indexes', '69cc242e72bb21d7bef5a603819bdabe2b0bcf6381620fbc1bddabb0eab8535d'],
  ['20261124130000_roles_sessions_throttle', '42853e6dbdfb5f6f982b3b0563a44f373c338303edec632b504aa3ef9fbde0c7'],
  ['20261124130100_set_password_links', '307adef73f26435681b6eec7087427ce36f9a117517d6a938f621fa609c761b2'],
  ['20261124130200_history', '50561eff2850e7d6091576693ec67b7237d583030c049030b781fdf6f07d0da5'],
  ['20261124130300_deleted_items', '4af0ae62fb80893fed505c8fab28ea856382823cc31ce7ac24c2f5ec959ca88b'],
  ['20261124140000_jobs', '93ed166b95a861507b440ed5d306d2b54bd20b5fce30364f0350fd20a911086c'],
  ['20261124150000_dashboard_payment_indexes', '398fcefb09522b9fccbb2e8de580acb6a57624dc3d998d633a1f1c5a62ab76e0'],
  ['20261125180000_dashboard_payment_totals', 'fd861ba78ed7988ccf3c171b86774367d613418e1f46f37e60a5c63543e5e457'],
  ['20261125190000_sync_runs_cancelled', '0215cfaedbad216c4d6509de1b349885450861ac782c8ca4f632f8f140907de7'],
  ['20261125210000_contacts_email_sort_index', '4c365767daf65a1d48974d94275d92fbb0268f8c3ae13c401c12797690860775'],
  ['20261126090000_packed_search_postings', 'a38e9bbbf6c7a62b72dec0c3c8a19b1afbc0c5548fa6600f7516eaf06c97f872'],
  ['20261128120000_dashboard_payment_indexes_converge', '51534752283c71133cfae4dff5c6295424cbab7a942921a31fea182e5380421b'],
  ['20261128130000_run_track_type_slugs', '0c18f935b33205463606f36741d93a84f9338806b10902a5acc8caaae76f04df'],
  ['20261128170000_api_tokens', '5d4b8f926b0c2972682745b7c2d546889a8e64bef7d093476f867c8edfb6a4bf'],
  ['20261128180000_webhooks', '7a553c43793970ce807943f2430818adcd5c179e26a00ae1727f52bc660f9d1a'],
  ['20261128190000_notes_tasks_notifications', '84bf9044b31d2642474e58db09787ae70d81e79aa278be4949e58071eb85a542'],
  ['20261128200000_second_factors_sign_in_events', '31d2c2ef7285cd9b10eaa98ac7cad9973d15fc403aed51a4f7e3b63b3ebfe32b'],
  ['20261128210000_passkeys', 'b2d39242ba0486161dd8148518653ce31a492fcbf311df30857626e26dda24b7'],
  ['20261128211000_job_alert_streaks', '20a005799c8d698bfb8c2a41b18a5bb9b8a49b61cd962545065150fb13b62b43'],
  ['20261128235000_duplicate_keys_pairs_dismissals', 'cd085ef5d3aef865504270e07aae69cd3eea6a1a5c6efc1a9795c74de856c77f'],
  ['20261129010000_activity_timeline', 'dbdfa77ebf7ed9f49caf90f66758a749683c230873832a4a82ca19d78b7cfd0b'],
  ['20261129020000_import_mappings', '88863873c4ef31da6dc7fe569f89efbe4e33b342737c49ca58ac449c9bffc970'],
  ['20261129130000_webhook_deliveries_carry_events', 'b9de78748e0f73c19f67c3fbc211b3f5b0ab9d8a3828b042fd12219f70667e12'],
];

const sha256Of = (name: string) =>
  createHash('sha256')
    .update(readFileSync(path.join(dir, `${name}.ts`)))
    .digest('hex');

describe('landed migrations', () => {
  it.each(LANDED)('%s is unchanged', (name, landed) => {
    expect(existsSync(path.join(dir, `${name}.ts`)), `migrations/${name}.ts has landed: it must not be renamed or deleted.`).toBe(true);
    expect(
      sha256Of(name),
      `migrations/${name}.ts has landed and was edited. Databases that ran it never run it again: undo the edit and ` +
        'write a new migration that brings every database from what it made to what you need (docs/conventions.md, "Add a migration"). ' +
        `If it has not landed yet (it is only on your branch), its line here is early: take it out, and when it lands add ['${name}', '${sha256Of(name)}'].`,
    ).toBe(landed);
  });

  it('are listed in the order of their names', () => {
    const listed = LANDED.map(([name]) => name);
    expect(listed).toEqual([...listed].sort());
  });
});
