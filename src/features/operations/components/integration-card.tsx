import { ExternalLink, Info, KeyRound, Settings, UserRound } from 'lucide-react';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import type { Tone } from '../../../components/ui/tone.ts';
import { hasNamedContact } from '../lib/integration-stats.ts';
import type { IntegrationContact, IntegrationView } from '../lib/integration-view.ts';
import { Card } from '../../../components/ui/card.tsx';

export interface IntegrationCardProps {
  integration: IntegrationView;
  contact: IntegrationContact | undefined;
  /** Master admins edit the integration's details (the settings icon). */
  canEdit: boolean;
  /** Admins add and edit the saved contact. */
  canEditContact: boolean;
  onEdit: (integration: IntegrationView) => void;
  onOpenContact: (integration: IntegrationView) => void;
}

/** A small label on a card: its words carry the meaning, the tone only helps. */
function Badge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  return (
    <span
      data-tone={tone}
      className="inline-flex items-center gap-1 rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium text-tone-800"
    >
      {children}
    </span>
  );
}

/**
 * One integration (product-spec §2, §3): name, category, description, tags, optional note,
 * OAuth badge, a link out in a new tab, and its saved contact.
 */
export function IntegrationCard({
  integration,
  contact,
  canEdit,
  canEditContact,
  onEdit,
  onOpenContact,
}: IntegrationCardProps) {
  const named = hasNamedContact(contact);
  const contactLabel = named
    ? `Contact: ${contact!.name}`
    : canEditContact
      ? 'Add Contact'
      : contact
        ? 'View Contact'
        : null;

  return (
    <Card as="article" aria-label={integration.name} className="flex h-full flex-col">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words text-gray-900">{integration.name}</h3>
          <div className="mt-1 flex flex-wrap items-center gap-1.5">
            <Badge tone="gray">{integration.category}</Badge>
            {integration.oauthKind && (
              <Badge tone="green">
                <KeyRound className="h-3 w-3" aria-hidden="true" />
                OAuth
              </Badge>
            )}
            {integration.source === 'custom' && (
              <Badge tone="blue">Added by your organization</Badge>
            )}
            {integration.customized && <Badge tone="amber">Customized</Badge>}
          </div>
        </div>
        {canEdit && (
          <Button
            variant="ghost"
            size="icon"
            onClick={() => onEdit(integration)}
            aria-label={`Edit ${integration.name}`}
            title="Edit integration"
            className="shrink-0"
          >
            <Settings className="h-5 w-5" aria-hidden="true" />
          </Button>
        )}
      </div>

      <p className="mt-3 text-sm text-gray-700">{integration.description}</p>

      {integration.tags.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-1" aria-label="Tags">
          {integration.tags.map((tag, index) => (
            <li
              key={`${index}-${tag}`}
              className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700"
            >
              {tag}
            </li>
          ))}
        </ul>
      )}

      {integration.note && (
        <p
          data-tone="amber"
          className="mt-3 flex items-start gap-1.5 rounded-md bg-tone-50 p-2 text-xs text-tone-900"
        >
          <Info className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
          <span>{integration.note}</span>
        </p>
      )}

      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4">
        <a
          href={integration.url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Open ${integration.name} (opens in a new tab)`}
          className={buttonClass({ size: 'sm' })}
        >
          Open
          <ExternalLink className="h-4 w-4" aria-hidden="true" />
        </a>
        {contactLabel ? (
          <Button
            variant="secondary"
            size="sm"
            icon={UserRound}
            onClick={() => onOpenContact(integration)}
            className="min-w-0"
          >
            <span className="truncate">{contactLabel}</span>
          </Button>
        ) : (
          <span className="text-xs text-gray-500">No contact saved yet</span>
        )}
      </div>
    </Card>
  );
}
