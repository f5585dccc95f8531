import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { copyText } from '../lib/copy-text.ts';

const COPIED_FEEDBACK_MS = 2000;

/** The shareable link with a copy button that says Copied! for 2 seconds (spec §2, §9). */
export function InvitationLink({ link }: { link: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<'idle' | 'copied' | 'manual'>('idle');
  const inputId = useId();

  useEffect(() => {
    if (result !== 'copied') return;
    const timer = setTimeout(() => setResult('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const onCopy = async () => {
    setResult((await copyText(link, inputRef.current)) ? 'copied' : 'manual');
  };

  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-gray-700">
        Invitation link
      </label>
      <div className="mt-1 flex gap-2">
        <input
          ref={inputRef}
          id={inputId}
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 rounded-md border border-gray-300 bg-gray-50 px-3 py-2 font-mono text-xs text-gray-800"
        />
        <button
          type="button"
          onClick={() => void onCopy()}
          className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-gray-300 px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          {result === 'copied' ? (
            <Check className="h-4 w-4 text-green-600" aria-hidden="true" />
          ) : (
            <Copy className="h-4 w-4" aria-hidden="true" />
          )}
          {result === 'copied' ? 'Copied!' : 'Copy link'}
        </button>
      </div>
      <p aria-live="polite" className="mt-1 min-h-5 text-xs text-gray-600">
        {result === 'copied' && 'The link has been copied to your clipboard.'}
        {result === 'manual' &&
          'Your browser did not allow copying. The link is selected: press Ctrl+C (or Cmd+C) to copy it.'}
      </p>
    </div>
  );
}
