/**
 * Markdown as the admin wrote it (terms, privacy, academy texts), rendered
 * safely: react-markdown builds React elements and never injects HTML (raw
 * HTML in the text is shown as text), and link targets go through its URL
 * filter (no `javascript:`). Import it lazily: the library stays out of the
 * login and registration chunks.
 */
import ReactMarkdown from 'react-markdown';

export default function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown skipHtml>{text}</ReactMarkdown>
    </div>
  );
}
