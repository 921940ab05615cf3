// The analyst's commentary is Markdown-light: paragraphs separated by a blank line, `- ` (or `* `)
// bullets, **bold** and *italic*. One parser for the PDF, the Markdown file and the in-app preview, so
// the three show the same thing. Anything else is printed as written (no links, headings or HTML).

export interface CommentaryRun {
  text: string;
  bold: boolean;
  italic: boolean;
}

export interface CommentaryBlock {
  kind: 'paragraph' | 'bullet';
  runs: CommentaryRun[];
}

/** Splits a line into runs: `**x**` bold, `*x*` italic; an unmatched marker stays as text. */
export function commentaryRuns(line: string): CommentaryRun[] {
  const runs: CommentaryRun[] = [];
  const pattern = /\*\*(.+?)\*\*|\*(?!\s)(.+?)\*/g;
  let last = 0;
  for (const match of line.matchAll(pattern)) {
    const at = match.index;
    if (at > last) runs.push({ text: line.slice(last, at), bold: false, italic: false });
    if (match[1] !== undefined) runs.push({ text: match[1], bold: true, italic: false });
    else runs.push({ text: match[2] ?? '', bold: false, italic: true });
    last = at + match[0].length;
  }
  if (last < line.length) runs.push({ text: line.slice(last), bold: false, italic: false });
  return runs;
}

export function parseCommentary(text: string | null | undefined): CommentaryBlock[] {
  if (!text) return [];
  const blocks: CommentaryBlock[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', runs: commentaryRuns(paragraph.join(' ')) });
    paragraph = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const bullet = /^[-*•]\s+(.*)$/.exec(line);
    if (line === '') flush();
    else if (bullet) {
      flush();
      blocks.push({ kind: 'bullet', runs: commentaryRuns(bullet[1] ?? '') });
    } else paragraph.push(line);
  }
  flush();
  return blocks;
}
