import { lazyAction } from '@views/components/records/lazy-action.js';
import { DefinedCardLines, definedColumns } from '@views/components/records/defined-columns.js';
import { sortingOf } from '@views/components/records/list-views.js';
import { useLoaderData } from 'react-router';
import { type Brand } from '@shared/schemas/records.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import { ConfirmDeleteButton, useDeleteRecord } from '@views/components/records/delete-dialog.js';
import { ExternalLink } from '@views/components/records/detail.js';
import { detailPath, editPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { deleteFields } from '@views/components/records/delete-fields.js';
import { brandsConfig } from './config.js';

export const loader = listLoader('brand');
export const action = lazyAction(brandsConfig, async () => (await import('@views/components/records/list-actions.js')).listAction);

/** The cells the brands table draws itself; the other columns are the definition's (`definedColumns`). */
const cells = {
  brandName: (b: Brand) => <a href={detailPath(brandsConfig, b.id)}>{b.brandName}</a>,
};

export function Component() {
  const data = useLoaderData() as ListData<Brand>;
  const columns = definedColumns(data.tableColumns, cells);
  const sorting = sortingOf(data.sorts, columns);
  const deleteBrand = useDeleteRecord();
  return (
    <RecordListPage
      title="Brands"
      listPath={brandsConfig.listPath}
      searchLabel="Search brands"
      searchPlaceholder="Search brands..."
      actions={
        <>
          <ButtonLink to="/brands/bulk-import" variant="outline">
            Bulk Import
          </ButtonLink>
          <ButtonLink to="/brands/add">Add Brand</ButtonLink>
        </>
      }
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sorting}
      itemKey={(brand) => brand.id}
      itemLabel={(brand) => brand.brandName}
      empty={(searching) => ({
        title: 'No brands found',
        hint: searching
          ? 'No brands match this search. Try another brand name or industry category.'
          : 'Add your first brand, or bulk import brands from CSV.',
      })}
      renderCard={(brand) => (
        <RecordCard
          to={detailPath(brandsConfig, brand.id)}
          editTo={editPath(brandsConfig, brand.id)}
          title={brand.brandName}
          testId="brand-card"
          actions={
            <ConfirmDeleteButton
              small
              ariaLabel={`Delete ${brand.brandName}`}
              menuFor={brand.brandName}
              question="Are you sure you want to delete this brand?"
              postFields={deleteFields(brand.id)}
              onConfirm={() => deleteBrand(brand.id)}
            />
          }
        >
          <DefinedCardLines fields={data.cardFields} item={brand} />
          <CardLine>{brand.websiteUrl && <ExternalLink href={brand.websiteUrl}>Website</ExternalLink>}</CardLine>
        </RecordCard>
      )}
    />
  );
}
