import { MongoClient } from 'mongodb'
import { checkStoredPets, databaseOf, mongoUriProblem } from '../../adapters/mongodb/index.js'

/*
 * The store tool: `npm run store -- check` lists, one JSON line each on stdout, the stored pets
 * that today's input rules would refuse; a summary goes to stderr. Exit 0 when there are none,
 * 1 when there are some, 2 when it cannot run (usage, MONGODB_URI), 3 when the database fails.
 */
const USAGE = `usage: npm run store -- check
  Lists the pets stored at MONGODB_URI that today's input rules would refuse (one JSON line
  each: id, unreadable, problems). Exit 0: none; 1: some; 2: usage or MONGODB_URI; 3: database.`

const fail = (message: string, code: number): never => {
  console.error(message)
  process.exit(code)
}

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  console.log(USAGE)
  process.exit(0)
}
if (args.length !== 1 || args[0] !== 'check') fail(USAGE, 2)
const uri = process.env.MONGODB_URI ?? ''
if (uri === '')
  fail(`MONGODB_URI is not set: the in-memory store keeps nothing to check\n${USAGE}`, 2)
const problem = mongoUriProblem(uri)
if (problem !== undefined) fail(`MONGODB_URI ${problem}`, 2)

const client = new MongoClient(uri, { useBigInt64: true, serverSelectionTimeoutMS: 10_000 })
let checked = 0
let refused = 0
try {
  const db = client.db(databaseOf(uri))
  checked = await db.collection('pets').countDocuments()
  for await (const finding of checkStoredPets(db)) {
    refused += 1
    console.log(JSON.stringify(finding))
  }
} catch (error) {
  await client.close()
  fail(`the database failed: ${String(error)}`, 3)
}
await client.close()
console.error(`${checked} stored pets checked: ${refused} would be refused by today's input rules`)
process.exit(refused === 0 ? 0 : 1)
