// The stand-in's health check: s3rver answers HTTP on S3_PORT (any status: an unsigned request is refused).
const res = await fetch(`http://127.0.0.1:${process.env.S3_PORT}/`).catch((error) => ({ error }));
if ('error' in res) {
  console.error(`s3rver unreachable: ${res.error.message}`);
  process.exit(1);
}
console.log(`s3rver answered ${res.status}`);
