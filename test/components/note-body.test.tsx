import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mentionedEmails } from '@shared/note-format.js';
import { NoteBody } from '@views/components/notes/note-body.js';

const html = (body: string) =>
  render(<NoteBody body={body} users={[{ id: 1, name: 'Ana Lima', email: 'ana@example.org' }]} />).container.innerHTML;

describe("a note's small formatting", () => {
  it('renders paragraphs, line breaks, bold, italics and lists', () => {
    expect(html('Hello **big** *world*\nnext line\n\n- one\n- two\n\n1. first\n2. second')).toBe(
      '<div class="note-body"><p><span>Hello <strong>big</strong> <em>world</em></span><span><br>next line</span></p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol></div>',
    );
  });

  it('links only http(s) and mailto, opening apart; anything else stays text', () => {
    const out = html(
      '[site](https://example.org/a?b=1) [mail](mailto:a@example.org) [bad](javascript:alert(1)) see https://x.example/path.',
    );
    expect(out).toContain('<a href="https://example.org/a?b=1" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    expect(out).toContain('<a href="mailto:a@example.org" target="_blank" rel="noopener noreferrer nofollow">mail</a>');
    expect(out).toContain(
      '<a href="https://x.example/path" target="_blank" rel="noopener noreferrer nofollow">https://x.example/path</a>.',
    );
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('[bad](javascript:alert(1))');
  });

  it('never renders HTML from the text', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;');
  });

  it('shows @mentions by name and finds the mentioned addresses', () => {
    expect(html('Ask @ana@example.org or @bo@example.org')).toContain(
      '<span class="note-mention" title="ana@example.org">@Ana Lima</span> or <span class="note-mention" title="bo@example.org">@bo@example.org</span>',
    );
    expect(mentionedEmails('Ask @Ana@Example.org, me@example.org and @ana@example.org')).toEqual(['ana@example.org']);
  });
});
