export function Component() {
  return (
    <div className="page not-found">
      <h1>404 Page Not Found</h1>
      <p>Did you forget to add the page to the router?</p>
    </div>
  );
}
