// s3rver on S3_PORT (all addresses), storing in /data; stops on SIGTERM.
import S3rver from 's3rver';

const server = new S3rver({ address: '0.0.0.0', port: Number(process.env.S3_PORT), directory: '/data', silent: true });
const { port } = await server.run();
console.log(`s3rver listening on ${port}`);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => void server.close().then(() => process.exit(0)));
