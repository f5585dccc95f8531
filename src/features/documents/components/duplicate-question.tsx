import { useRef } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import type { MatchingDocument } from '../api/find-duplicates.ts';
import { newVersionProblem } from '../utils/same-kind.ts';

/** What to do with a file the organisation already has. */
export type DuplicateChoice = 'version' | 'keep' | 'skip';

export interface DuplicateQuestionProps {
  file: File;
  /** The documents it matches, newest first; the question is about the first. */
  existing: readonly MatchingDocument[];
  onChoose: (choice: DuplicateChoice) => void;
}

/**
 * Asked, per file, before an upload that repeats a document (issue 25): upload it as a new
 * version of that document (its earlier file kept, as Renew keeps it), keep both, or skip it.
 * A new version keeps the document's name, so it is offered only for a file of the same type.
 * Skip, the safe choice, has the focus; Escape or closing skips.
 */
export function DuplicateQuestion({ file, existing, onChoose }: DuplicateQuestionProps) {
  const skipRef = useRef<HTMLButtonElement>(null);
  const document = existing[0]!;
  const sameName = document.name === file.name;
  const canVersion = newVersionProblem(document.name, file.name) === null;
  return (
    <Modal title="Please confirm" onClose={() => onChoose('skip')} size="sm" initialFocus={skipRef}>
      <p className="text-sm text-gray-700">
        {sameName
          ? `"${file.name}" is already in your documents.`
          : `"${file.name}" is already in your documents as "${document.name}".`}{' '}
        {canVersion
          ? `Upload it as a new version of "${document.name}", keep both, or skip it?`
          : 'Upload it again?'}
      </p>
      <DialogActions>
        <Button ref={skipRef} variant="secondary" onClick={() => onChoose('skip')}>
          Skip
        </Button>
        <Button variant="secondary" onClick={() => onChoose('keep')}>
          Keep both
        </Button>
        {canVersion && <Button onClick={() => onChoose('version')}>Upload as a new version</Button>}
      </DialogActions>
    </Modal>
  );
}
