import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { copyText } from '../lib/copy-text.ts';

const COPIED_FEEDBACK_MS = 2000;

/**
 * The shareable link with a copy button that says Copied! for 2 seconds (spec §2, §9); also a
 * member's reset link (`label`).
 */
export function InvitationLink({
  link,
  label = 'Invitation link',
}: {
  link: string;
  label?: string;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<'idle' | 'copied' | 'manual'>('idle');

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
      <FormField label={label}>
        {(field) => (
          <div className="flex gap-2">
            <Input
              {...field}
              ref={inputRef}
              readOnly
              value={link}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 bg-gray-50 font-mono text-xs text-gray-800"
            />
            <Button
              variant="secondary"
              icon={result === 'copied' ? Check : Copy}
              onClick={() => void onCopy()}
              className="shrink-0"
            >
              {result === 'copied' ? 'Copied!' : 'Copy link'}
            </Button>
          </div>
        )}
      </FormField>
      <p aria-live="polite" className="mt-1 min-h-5 text-xs text-gray-600">
        {result === 'copied' && 'The link has been copied to your clipboard.'}
        {result === 'manual' &&
          'Your browser did not allow copying. The link is selected: press Ctrl+C (or Cmd+C) to copy it.'}
      </p>
    </div>
  );
}
