/**
 * Settings: what the numbers cost (price per million tokens), how long raw rows are kept
 * (retention caps, with the last pass), what is redacted before anything is stored (with a
 * preview), and clearing everything, behind a typed confirmation.
 * All of it lives in the database's `settings` table and applies to every project.
 */
import { ClearData } from './ClearData';
import { PricingSettings } from './PricingSettings';
import { RedactionSettings } from './RedactionSettings';
import { RetentionSettings } from './RetentionSettings';
import './settings.css';

export function SettingsPage() {
  return (
    <div className="settings">
      <div className="page-head">
        <h1>Settings</h1>
        <span className="sub">Stored in this database; they apply to every project.</span>
      </div>
      <div className="settings-grid">
        <PricingSettings />
        <RetentionSettings />
        <RedactionSettings />
        <ClearData />
      </div>
    </div>
  );
}
