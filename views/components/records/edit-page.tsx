import { useLoaderData } from 'react-router';
import type { FormCheck } from '@views/hooks/form-check.js';
import { editMissingText, NotFoundView, PageHeader } from './detail.js';
import type { RecordData } from './loaders.js';
import { RecordForm, type RecordFormProps } from './record-form.js';
import { detailPath, type RecordConfig } from './record-config.js';

export interface EditRecordPageProps {
  config: RecordConfig;
  check: FormCheck;
  sections: RecordFormProps['sections'];
  /** The type as a title reads it: 'Brand', 'Media Outlet', 'Run Club'. */
  title: string;
  /** The spec's not-found text: 'Brand not found'. */
  notFound: string;
  /** The not-found view's way back to the list: 'Return to Brands'. */
  listBackLabel: string;
}

/** The edit page of every record type (its loader is recordLoader): the prefilled form, or "does not exist". */
export function EditRecordPage({ config, check, sections, title, notFound, listBackLabel }: EditRecordPageProps) {
  const { record } = useLoaderData() as RecordData<{ id: number; updatedAt: string }>;
  if (!record)
    return <NotFoundView title={notFound} message={editMissingText(config.noun)} backTo={config.listPath} backLabel={listBackLabel} />;
  const back = detailPath(config, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel={`Back to ${title}`} title={`Edit ${title}`} />
      {/* A reload after an edit conflict loads a newer version: the form starts again from it. */}
      <RecordForm
        key={record.updatedAt}
        check={check}
        sections={sections}
        record={record}
        submitLabel={`Update ${title}`}
        cancelTo={back}
      />
    </div>
  );
}
