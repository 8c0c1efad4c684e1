import { openApiOperations, openApiProblems } from './openapi';

it('finds routes without an operationId, with a duplicated one, or without declared answers', () => {
  const doc = {
    paths: {
      '/a': { get: { operationId: 'getA', responses: { '200': {}, '404': {} } }, parameters: [] },
      '/b': { post: { responses: { '201': {}, '400': {} } }, put: { operationId: 'getA', responses: { '200': {} } } },
      '/c': { delete: { operationId: 'deleteC', responses: { '400': {} } } },
    },
  };
  expect(openApiOperations(doc).map((o) => o.route)).toEqual(['GET /a', 'POST /b', 'PUT /b', 'DELETE /c']);
  expect(openApiProblems(doc)).toEqual([
    'POST /b: no operationId',
    'PUT /b: operationId getA also used by GET /a',
    'PUT /b: no error response declared',
    'DELETE /c: no success response declared',
  ]);
  expect(openApiProblems({ paths: { '/a': { get: { operationId: 'getA', responses: { '200': {}, '500': {} } } } } })).toEqual([]);
});
