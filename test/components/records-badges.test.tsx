import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EventStatusBadge, InfluencerTypeBadge, PublishBadge, SubscriptionBadge } from '@views/components/records/badges.js';
import {
  atHandle,
  facebookProfile,
  instagramProfile,
  safeHref,
  telHref,
  tiktokProfile,
  wordpressAdminEditUrl,
} from '@views/components/records/links.js';
import { listApiSearch, readListQuery } from '@shared/list-query.js';
import { listPageHref, pageCount } from '@views/components/records/list-query.js';
import { recordMessages } from '@views/components/records/messages.js';
import { parseRecordId } from '@views/components/records/loaders.js';

describe('record badges', () => {
  it("reads 'Featured' or 'Active' for events", () => {
    render(
      <>
        <EventStatusBadge featured />
        <EventStatusBadge featured={false} />
      </>,
    );
    expect(screen.getByText('Featured').className).toContain('badge');
    expect(screen.getByText('Active').className).toContain('badge');
  });

  it("reads 'Published' with a wordpress id, otherwise 'Draft'", () => {
    const { rerender } = render(<PublishBadge wordpressId={12} unpublishedAt={null} />);
    expect(screen.getByText('Published')).toBeTruthy();
    rerender(<PublishBadge wordpressId={null} unpublishedAt={null} />);
    expect(screen.getByText('Draft')).toBeTruthy();
    expect(screen.queryByText('Published')).toBeNull();
  });

  it("reads 'Unpublished' once the sync found the post no longer published on the website", () => {
    render(<PublishBadge wordpressId={12} unpublishedAt="2026-11-28T09:00:00.000Z" />);
    expect(screen.getByText('Unpublished').title).toBe('No longer published on the content website');
    expect(screen.queryByText('Published')).toBeNull();
  });

  it('shows the subscription status with a tone per status', () => {
    render(
      <>
        <SubscriptionBadge status="active" />
        <SubscriptionBadge status="expired" />
        <SubscriptionBadge status="pending" />
      </>,
    );
    expect(screen.getByText('Active').className).toContain('badge-success');
    expect(screen.getByText('Expired').className).toContain('badge-danger');
    expect(screen.getByText('Pending').className).toContain('badge-warning');
  });

  it("names influencer types 'Pro', 'Pro & Influencer' and 'Influencer'", () => {
    render(
      <>
        <InfluencerTypeBadge type="pro" />
        <InfluencerTypeBadge type="both" />
        <InfluencerTypeBadge type="influencer" />
      </>,
    );
    for (const text of ['Pro', 'Pro & Influencer', 'Influencer']) expect(screen.getByText(text, { exact: true })).toBeTruthy();
  });

  it('draws the website state (Published/Draft) unlike the subscription state, so "Published" and "Active" differ', () => {
    render(
      <>
        <PublishBadge wordpressId={12} unpublishedAt={null} />
        <SubscriptionBadge status="active" />
      </>,
    );
    const published = screen.getByText('Published');
    const active = screen.getByText('Active');
    expect(published.className).toContain('badge-sync');
    expect(active.className).not.toContain('badge-sync');
    expect(published.className).not.toContain('badge-success');
    expect(published.getAttribute('title')).toBe('Website status');
    expect(active.getAttribute('title')).toBe('Subscription status');
  });
});

describe('links built from stored data', () => {
  it('shows handles with a leading @ and builds profile links from them', () => {
    expect(atHandle('runner')).toBe('@runner');
    expect(atHandle('@runner')).toBe('@runner');
    expect(atHandle('  ')).toBeNull();
    expect(instagramProfile('ava.runs')).toBe('https://www.instagram.com/ava.runs');
    expect(tiktokProfile('@ava')).toBe('https://www.tiktok.com/@ava');
    expect(facebookProfile('AvaRuns')).toBe('https://www.facebook.com/AvaRuns');
    expect(facebookProfile('https://www.facebook.com/ava.page')).toBe('https://www.facebook.com/ava.page');
    expect(telHref('+61 2 9999 0000')).toBe('tel:+61299990000');
  });

  it('links only http(s) URLs, taking a bare host as https', () => {
    expect(safeHref('example.org/x')).toBe('https://example.org/x');
    expect(safeHref('http://example.org')).toBe('http://example.org/');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,hi')).toBeNull();
    expect(safeHref('')).toBeNull();
  });

  it('builds the content-site admin edit link, or none without a wordpress id or admin URL', () => {
    expect(wordpressAdminEditUrl('https://cms.example.org/', 42)).toBe('https://cms.example.org/wp-admin/post.php?post=42&action=edit');
    expect(wordpressAdminEditUrl(null, 42)).toBeNull();
    expect(wordpressAdminEditUrl('https://cms.example.org', null)).toBeNull();
  });
});

describe('toast texts (spec point 8)', () => {
  it('words every type the same way, with professionals "added"', () => {
    expect(recordMessages('media outlet')).toEqual({
      created: 'Media outlet created successfully',
      createFailed: 'Failed to create media outlet',
      updated: 'Media outlet updated successfully',
      updateFailed: 'Failed to update media outlet',
      deleted: 'Media outlet deleted successfully',
      deleteFailed: 'Failed to delete media outlet',
    });
    expect(recordMessages('professional', 'add')).toMatchObject({
      created: 'Professional added successfully',
      createFailed: 'Failed to add professional',
    });
    expect(recordMessages('run club')).toMatchObject({
      updated: 'Run club updated successfully',
      deleteFailed: 'Failed to delete run club',
    });
  });
});

describe('list state in the URL', () => {
  const view = (kind: 'event' | 'runclub' | 'brand', search: string) => readListQuery(kind, new URLSearchParams(search), 'page').view;

  it('reads search, filter and page from a page URL, ignoring a malformed page or filter', () => {
    expect(view('event', 'q=%20marathon%20&filter=featured&page=2')).toEqual({
      q: 'marathon',
      filter: 'featured',
      sort: 'newest',
      dir: 'desc',
      page: 2,
    });
    expect(view('event', 'filter=bogus&page=-3')).toEqual({ q: '', filter: '', sort: 'newest', dir: 'desc', page: 1 });
    expect(view('event', 'filter=all&page=abc')).toEqual({ q: '', filter: '', sort: 'newest', dir: 'desc', page: 1 });
    expect(view('runclub', 'type=trail&filter=featured')).toEqual({ q: '', filter: 'trail', sort: 'newest', dir: 'desc', page: 1 });
    // Page URLs carry no limit or offset of their own: the page decides.
    expect(readListQuery('brand', new URLSearchParams('page=3&limit=2&offset=1'), 'page')).toMatchObject({
      ok: true,
      query: { limit: 24, offset: 48 },
    });
  });

  it('refuses on a page what the API refuses, with the same message, and keeps the typed search', () => {
    const long = 'x'.repeat(201);
    const onPage = readListQuery('event', new URLSearchParams({ q: long, filter: 'featured', page: '2' }), 'page');
    const onApi = readListQuery('event', new URLSearchParams({ q: long }), 'api');
    expect(onPage).toMatchObject({
      ok: false,
      message: 'Search text must be at most 200 characters',
      view: { q: long, filter: 'featured', page: 2 },
    });
    expect(onApi).toMatchObject({ ok: false, message: 'Search text must be at most 200 characters' });
  });

  it('is strict on API URLs: a bad filter, limit or repeated parameter is refused', () => {
    expect(readListQuery('event', new URLSearchParams('filter=bogus'), 'api').ok).toBe(false);
    expect(readListQuery('brand', new URLSearchParams('limit=101'), 'api').ok).toBe(false);
    expect(readListQuery('brand', new URLSearchParams('q=a&q=b'), 'api').ok).toBe(false);
  });

  it('turns a page into an offset for the API and keeps page URLs short', () => {
    const api = (kind: 'event' | 'runclub', search: string) => {
      const read = readListQuery(kind, new URLSearchParams(search), 'page');
      return read.ok ? listApiSearch(kind, read.query).toString() : read.message;
    };
    expect(api('event', 'q=run&filter=featured&page=3')).toBe('q=run&filter=featured&limit=24&offset=48');
    expect(api('runclub', '')).toBe('limit=24&offset=0');
    expect(listPageHref('/events', { q: 'run', filter: '', sort: 'newest', dir: 'desc', page: 1 }, 'filter')).toBe('/events?q=run');
    expect(listPageHref('/runclubs', { q: '', filter: 'trail', sort: 'newest', dir: 'desc', page: 2 }, 'type')).toBe(
      '/runclubs?type=trail&page=2',
    );
    expect(pageCount(0, 24)).toBe(1);
    expect(pageCount(49, 24)).toBe(3);
  });

  it('parses route ids as whole numbers; 0 and anything else mean "no fetch"', () => {
    expect(parseRecordId('17')).toBe(17);
    expect(parseRecordId('0')).toBe(0);
    expect(parseRecordId('1e3')).toBe(0);
    expect(parseRecordId('-1')).toBe(0);
    expect(parseRecordId(undefined)).toBe(0);
  });
});
